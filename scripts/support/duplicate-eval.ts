/**
 * The duplicates evaluation: each list pushed with its own key over the real service, the pairs
 * it groups scored against tests/fixtures/duplicates/labels.json, beside a plain reference
 * matcher (normalised title words, start date within a day, same city).
 */
import { untilGrouped } from "../../dev-support/grouping.ts";
import { type SourceEvent } from "./duplicate-sources.ts";
import { createApiKey, type TestServer } from "../../dev-support/test-server.ts";

const LABELS = new URL("../../tests/fixtures/duplicates/labels.json", import.meta.url);
const DAY = 86_400_000;

/** A pair of external ids, in a fixed order. */
export type PairKey = string;
export const pairKey = (a: string, b: string): PairKey => (a < b ? `${a}|${b}` : `${b}|${a}`);
const sourceOf = (externalId: string) => externalId.slice(0, externalId.indexOf(":"));

/** The labelled set: positives, the hard negatives, and pairs left out of the scores. */
export interface Labels {
  positives: Set<PairKey>;
  hardNegatives: Map<PairKey, string>;
  /** Pairs the entries do not decide: neither a hit nor a false merge. */
  ambiguous: Set<PairKey>;
}

/** Reads the positives and derives the hard negatives between `events` of different lists. */
export async function readLabels(events: SourceEvent[]): Promise<Labels> {
  const file = JSON.parse(await Deno.readTextFile(LABELS)) as {
    positives: { a: string; b: string }[];
    colocated: { a: string; b: string }[];
    ambiguous: { a: string; b: string }[];
  };
  const known = new Set(events.map((e) => e.external_id));
  const pairs = (list: { a: string; b: string }[]) =>
    new Set(list.filter((p) => known.has(p.a) && known.has(p.b)).map((p) => pairKey(p.a, p.b)));
  const positives = pairs(file.positives);
  const ambiguous = pairs(file.ambiguous ?? []);
  const hardNegatives = new Map<PairKey, string>();
  for (const c of file.colocated) {
    if (known.has(c.a) && known.has(c.b)) hardNegatives.set(pairKey(c.a, c.b), "co-located");
  }
  // Plain spellings, not the matcher's normalisers: the labels must not move with the rules
  // they score.
  const facts = events.map((e) => {
    const words = plainWords(e.title).split(" ").filter((w) => w !== "" && !GENERIC.has(w));
    return {
      id: e.external_id,
      start: Date.parse(e.starts_at.slice(0, 10)),
      words,
      compact: words.join(""),
      city: (e.city ?? "").split(",")[0].trim().toLowerCase().normalize("NFKD")
        .replace(/[\u0300-\u036f]/g, "") || null,
    };
  });
  for (let i = 0; i < facts.length; i++) {
    for (let j = i + 1; j < facts.length; j++) {
      const [a, b] = [facts[i], facts[j]];
      const key = pairKey(a.id, b.id);
      if (
        sourceOf(a.id) === sourceOf(b.id) || positives.has(key) || hardNegatives.has(key) ||
        ambiguous.has(key)
      ) {
        continue;
      }
      const days = Math.abs(a.start - b.start) / DAY;
      const sameCity = a.city !== null && a.city === b.city;
      if (days <= 7 && sameCity) hardNegatives.set(key, "same city, same week");
      else if (days <= 7 && a.words.some((w) => b.words.includes(w))) {
        hardNegatives.set(key, "same series or words, other city");
      } else if (days > 7 && days < 430 && a.compact === b.compact) {
        hardNegatives.set(key, "same name, other edition");
      }
    }
  }
  return { positives, hardNegatives, ambiguous };
}

/** Precision, recall and F1 of predicted pairs, and the hard negatives they merged. */
export interface Scores {
  predicted: number;
  truePositives: number;
  precision: number;
  recall: number;
  f1: number;
  hardMerged: number;
  hardTotal: number;
  falsePositives: PairKey[];
  missed: PairKey[];
}

/** Scores the cross-list pairs in `predicted` against the labels. */
export function score(predicted: Set<PairKey>, labels: Labels): Scores {
  const cross = [...predicted].filter((k) => {
    const [a, b] = k.split("|");
    return sourceOf(a) !== sourceOf(b) && !labels.ambiguous.has(k);
  });
  const tp = cross.filter((k) => labels.positives.has(k)).length;
  const precision = cross.length === 0 ? 1 : tp / cross.length;
  const recall = labels.positives.size === 0 ? 1 : tp / labels.positives.size;
  return {
    predicted: cross.length,
    truePositives: tp,
    precision,
    recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
    hardMerged: cross.filter((k) => labels.hardNegatives.has(k)).length,
    hardTotal: labels.hardNegatives.size,
    falsePositives: cross.filter((k) => !labels.positives.has(k)),
    missed: [...labels.positives].filter((k) => !predicted.has(k)),
  };
}

// Words that name no conference: sharing one makes no hard negative.
const GENERIC = new Set(
  ("the a an of and in on at for by de la le conference conf conferences online virtual " +
    "international annual edition event").split(" "),
);

function plainWords(title: string): string {
  return [
    ...new Set(
      title.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
        .replace(/[^a-z0-9]+/g, " ").split(" ").filter((w) => w && !/^(19|20)\d\d$/.test(w)),
    ),
  ].sort().join(" ");
}

/** The plain reference matcher: same title words, start dates within a day, same city. */
export function referencePairs(events: SourceEvent[]): Set<PairKey> {
  const pairs = new Set<PairKey>();
  const facts = events.map((e) => ({
    id: e.external_id,
    day: Date.parse(e.starts_at.slice(0, 10)),
    words: plainWords(e.title),
    city: (e.city ?? "").split(",")[0].trim().toLowerCase() || null,
  }));
  for (let i = 0; i < facts.length; i++) {
    for (let j = i + 1; j < facts.length; j++) {
      const [a, b] = [facts[i], facts[j]];
      if (sourceOf(a.id) === sourceOf(b.id)) continue;
      if (a.words === b.words && Math.abs(a.day - b.day) <= DAY && a.city === b.city) {
        pairs.add(pairKey(a.id, b.id));
      }
    }
  }
  return pairs;
}

/**
 * Pushes each list with its own key (trusted or not) and returns the pairs the service groups,
 * read from `duplicates` on the full listing (collapse=false); `afterPush` runs between the two
 * (the embedding worker's drain, in a run with vectors).
 */
export async function servicePairs(
  server: TestServer,
  o: {
    sources: { name: string; events: SourceEvent[] }[];
    trusted: boolean;
    afterPush?: () => Promise<void>;
  },
): Promise<Set<PairKey>> {
  for (const source of o.sources) {
    const key = await createApiKey(server, {
      contributor: source.name,
      rate_limit_per_minute: 100_000,
    });
    if (o.trusted) {
      const res = await server.fetch(`/api/v1/admin/keys/${key.id}/trust`, {
        method: "POST",
        headers: { Authorization: `Bearer ${server.adminKey}` },
      });
      if (res.status !== 200) throw new Error(`Cannot trust ${source.name}: ${res.status}`);
      await res.body?.cancel();
    }
    for (let i = 0; i < source.events.length; i += 100) {
      const res = await server.fetch("/api/v1/events", {
        method: "POST",
        headers: { Authorization: `Bearer ${key.key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ events: source.events.slice(i, i + 100) }),
      });
      const body = await res.json();
      if (res.status !== 200 || body.data.errors.length > 0) {
        throw new Error(
          `Cannot push ${source.name}: ${res.status} ${JSON.stringify(body).slice(0, 400)}`,
        );
      }
    }
  }
  // Grouped after the pushes' answers, in the background.
  await untilGrouped(server.service.deps.db.sql, 120_000);
  await o.afterPush?.();
  const byId = new Map<string, string>();
  const groups: { id: string; others: string[] }[] = [];
  let cursor: string | null = "";
  for (let page = 0; page < 1000 && cursor !== null; page++) {
    const c: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const res = await server.fetch(`/api/v1/events?from=2000-01-01&collapse=false&limit=100${c}`);
    const body = await res.json();
    for (const e of body.data) {
      byId.set(e.id, e.external_id);
      groups.push({ id: e.id, others: e.duplicates.map((d: { id: string }) => d.id) });
    }
    cursor = body.next_cursor;
  }
  const pairs = new Set<PairKey>();
  for (const g of groups) {
    for (const other of g.others) pairs.add(pairKey(byId.get(g.id)!, byId.get(other)!));
  }
  return pairs;
}
