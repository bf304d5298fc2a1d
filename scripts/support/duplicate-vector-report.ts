/**
 * How alike the vectors of the evaluation's pairs are, for choosing the matcher's VECTOR_SAME on
 * the data: the labelled pairs against the hard negatives, among pairs in the same place within
 * a day (where the vector rule may apply), with how many of each reach each threshold.
 */
import { EventInput } from "../../shared/event-schema.ts";
import { matchFactsOf } from "../../server/duplicates/match-facts.ts";
import { gapMs, placeRelation } from "../../server/duplicates/matcher.ts";
import { titleSimilarity } from "../../server/duplicates/title-likeness.ts";
import type { SourceEvent } from "./duplicate-sources.ts";
import type { Labels } from "./duplicate-eval.ts";
import { cosine } from "./duplicate-offline.ts";

const THRESHOLDS = [0.7, 0.75, 0.8, 0.85, 0.88, 0.9, 0.92, 0.95];
const HOURS_36 = 36 * 3_600_000;

/** A table of the similarities of labelled pairs and hard negatives, as text. */
export function vectorSeparation(
  o: {
    sources: { name: string; events: SourceEvent[] }[];
    labels: Labels;
    vectors: Map<string, number[]>;
  },
): string {
  const facts = new Map(
    o.sources.flatMap((s) => s.events).map((e) => [
      e.external_id,
      matchFactsOf({ ...EventInput.parse(e), id: e.external_id }),
    ]),
  );
  const similarities = (keys: Iterable<string>) => {
    const out: { all: number[]; apart: number[] } = { all: [], apart: [] };
    for (const key of keys) {
      const [a, b] = key.split("|").map((id) => facts.get(id)!);
      if (placeRelation(a, b) !== "same" || gapMs(a, b) > HOURS_36) continue;
      const s = cosine(o.vectors.get(a.id)!, o.vectors.get(b.id)!);
      out.all.push(s);
      // Titles the word rules do not join in the same place (below their 0.6).
      if (titleSimilarity(a, b) < 0.6) out.apart.push(s);
    }
    return out;
  };
  const positives = similarities(o.labels.positives);
  const negatives = similarities(o.labels.hardNegatives.keys());
  const at = (xs: number[], t: number) => xs.filter((x) => x >= t).length;
  const lines = [
    "Vector similarity, pairs in the same place within 36 hours " +
    `(labelled ${positives.all.length}, of them titles apart ${positives.apart.length}; ` +
    `hard negatives ${negatives.all.length}, titles apart ${negatives.apart.length}); ` +
    `highest hard negative ${Math.max(...negatives.all).toFixed(3)}`,
    "| at least | labelled pairs | of them titles apart | hard negatives | of them titles apart |",
    "| --- | --- | --- | --- | --- |",
    ...THRESHOLDS.map((t) =>
      `| ${t} | ${at(positives.all, t)} | ${at(positives.apart, t)} | ${at(negatives.all, t)} | ` +
      `${at(negatives.apart, t)} |`
    ),
  ];
  return lines.join("\n");
}
