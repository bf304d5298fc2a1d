/**
 * Fusions measured offline on the candidates `scripts/eval-search.ts --rankings <file>` recorded:
 * each variant fuses every query's recorded text and semantic candidates, and its page is judged
 * as the evaluation judges hybrid search (P@10, nDCG@10 per corpus and kind). A variant passes
 * when on every corpus and kind it is at least max(text, semantic) - 0.005.
 *
 *   deno run -A scripts/eval-fusion.ts <rankings.json> [<variant that recorded it>]
 *
 * The row "search" is HYBRID_FUSION. The variant the file was recorded with ("search" unless
 * named) must give the hybrid pages the evaluation recorded, which the script checks, so that
 * the offline figures are the service's.
 */
import type { Match, TextMatch } from "../server/db/text-matches.ts";
import {
  type FusedMatch,
  fuseHybrid,
  type FusionSettings,
  HYBRID_FUSION,
} from "../server/search/hybrid-fusion.ts";
import { meanOf, measure, type Measures } from "./support/eval-metrics.ts";
import { QUERY_KINDS } from "./support/eval-kinds.ts";
import type { RecordedCorpus } from "./support/eval-rankings.ts";

type Fuse = (text: TextMatch[], semantic: Match[]) => FusedMatch[];

const settings = (s: Partial<FusionSettings>): Fuse => (text, semantic) =>
  fuseHybrid(text, semantic, { ...HYBRID_FUSION, ...s });

/**
 * How strong the text ranking is for this query: 1 when an event holds every word, else the
 * largest share of the query's idf one event holds.
 */
const strength = (text: TextMatch[]) =>
  text.some((m) => m.everyWord) ? 1 : Math.max(0, ...text.map((m) => m.coverage));

/**
 * The weights of the fusion before (known words only, k 20) per text event (squared shares when
 * weak), then scaled by `scale`.
 */
const scaled = (scale: (b: number) => number, k = 20, kText = k): Fuse =>
(
  text,
  semantic,
) => {
  const b = strength(text);
  const weak = b < HYBRID_FUSION.weakTextBelow!;
  const s = HYBRID_FUSION;
  const near = semantic.filter((m) => m.score >= s.floor);
  const w = (m: TextMatch) =>
    m.everyWord
      ? s.everyWord
      : s.partial + (s.everyWord - s.partial) * m.coverage ** (weak ? 2 : 1);
  const score = new Map<string, number>();
  text.forEach((m, i) =>
    score.set(m.id, (score.get(m.id) ?? 0) + w(m) * scale(b) / ((weak ? kText : k) + i + 1))
  );
  near.forEach((m, i) => score.set(m.id, (score.get(m.id) ?? 0) + 1 / (k + i + 1)));
  const order = [...new Set([...text.map((m) => m.id), ...near.map((m) => m.id)])];
  return order.map((id) => ({ id, score: score.get(id)!, ranks: { text: null, semantic: null } }))
    .sort((a, b) => b.score - a.score);
};

/** Min-max normalised scores summed, the text list's scaled by its strength. */
const combSum: Fuse = (text, semantic) => {
  const b = strength(text);
  const near = semantic.filter((m) => m.score >= HYBRID_FUSION.floor);
  const score = new Map<string, number>();
  const add = (list: Match[], weight: number) => {
    const hi = Math.max(...list.map((m) => m.score));
    const lo = Math.min(...list.map((m) => m.score));
    for (const m of list) {
      const norm = hi > lo ? (m.score - lo) / (hi - lo) : 1;
      score.set(m.id, (score.get(m.id) ?? 0) + weight * norm);
    }
  };
  add(text, b);
  add(near, 1);
  const order = [...new Set([...text.map((m) => m.id), ...near.map((m) => m.id)])];
  return order.map((id) => ({ id, score: score.get(id)!, ranks: { text: null, semantic: null } }))
    .sort((a, b) => b.score - a.score);
};

/** The variants measured; "search" is the fusion search uses. */
const VARIANTS: Record<string, Fuse> = {
  "search": settings({}),
  // Text matches judged against the words some event holds only: the fusion before.
  "known-words-only": settings({ wholeQuery: false, k: 20 }),
  // Measured on the fusion before (they judge against known words only, k 20).
  "weak-text-times-strength": scaled((b) => (b < 0.5 ? b : 1)),
  "text-times-strength": scaled((b) => b),
  "weak-semantic-first": scaled((b) => (b < 0.5 ? 0.001 : 1)),
  "weak-text-k60": scaled(() => 1, 20, 60),
  "weak-text-half": scaled((b) => (b < 0.5 ? 0.5 : 1)),
  "comb-sum-by-strength": combSum,
  "every-word-4": settings({ everyWord: 4, wholeQuery: false, k: 20 }),
  "k-30": settings({ k: 30 }),
  "k-20": settings({ k: 20 }),
  "k-15": settings({ k: 15 }),
  "k-12": settings({ k: 12 }),
  "k-10": settings({ k: 10 }),
  "k-8": settings({ k: 8 }),
  "k-5": settings({ k: 5 }),
  "weak-0.4": settings({ weakTextBelow: 0.4 }),
  "weak-0.6": settings({ weakTextBelow: 0.6 }),
};

/** The variant changes are measured against: the fusion before search's. */
const BASELINE = "known-words-only";

/** Variants also measured on each expansion's semantic candidates (`name@expansion`). */
const WITH_EXPANSIONS = ["search", "known-words-only", "k-20", "k-15", "k-10"];

const [file, recordedWith = "search"] = Deno.args;
if (!file) throw new Error("usage: eval-fusion.ts <rankings.json> [<variant that recorded it>]");
const corpora: Record<string, RecordedCorpus> = JSON.parse(await Deno.readTextFile(file));

const cells: Record<string, Record<string, Record<string, Measures>>> = {};
for (const [corpus, { queries }] of Object.entries(corpora)) {
  const measured: Record<string, Record<string, Measures[]>> = {};
  const add = (kind: string, mode: string, m: Measures) =>
    ((measured[kind] ??= {})[mode] ??= []).push(m);
  for (const query of queries) {
    const relevant = new Set(query.relevant);
    for (const [mode, page] of Object.entries(query.pages)) {
      add(query.kind, mode, measure(page, relevant));
    }
    const text: TextMatch[] = query.text;
    const semantic: Match[] = query.semantic;
    for (const [name, fuse] of Object.entries(VARIANTS)) {
      const page = fuse(text, semantic).slice(0, 10).map((f) => f.id);
      if (name === recordedWith && page.join() !== query.pages.hybrid.join()) {
        console.log(`warning: ${corpus} "${query.q}": the offline fusion differs from hybrid's`);
      }
      add(query.kind, `hybrid:${name}`, measure(page, relevant));
      // The same fusion of the text ranking with an expanded query's semantic ranking.
      for (const [expansion, expanded] of Object.entries(query.expanded ?? {})) {
        if (!WITH_EXPANSIONS.includes(name)) continue;
        const page = fuse(text, expanded).slice(0, 10).map((f) => f.id);
        add(query.kind, `hybrid:${name}@${expansion}`, measure(page, relevant));
      }
    }
  }
  cells[corpus] = {};
  for (const kind of QUERY_KINDS) {
    cells[corpus][kind] = Object.fromEntries(
      Object.entries(measured[kind] ?? {}).map(([mode, all]) => [mode, meanOf(all)]),
    );
  }
}

const fmt = (m: Measures) => `${m.precision.toFixed(3)} / ${m.ndcg.toFixed(3)}`;
for (const [corpus, kinds] of Object.entries(cells)) {
  console.log(`\n${corpus}: P@10 / nDCG@10`);
  for (const [kind, modes] of Object.entries(kinds)) {
    for (const [mode, m] of Object.entries(modes)) {
      console.log(`  ${kind.padEnd(12)}${mode.padEnd(34)}${fmt(m)}`);
    }
  }
}
console.log("\nPasses (every cell >= max(text, semantic) - 0.005), worst margin, and the change");
console.log(`against ${BASELINE}'s per cell (P@10):`);
const measuredNames = Object.keys(Object.values(Object.values(cells)[0])[0])
  .filter((m) => m.startsWith("hybrid:")).map((m) => m.slice("hybrid:".length));
for (const name of measuredNames) {
  let worst = Infinity;
  const changes: string[] = [];
  for (const [corpus, kinds] of Object.entries(cells)) {
    for (const [kind, modes] of Object.entries(kinds)) {
      const p = modes[`hybrid:${name}`].precision;
      const bar = Math.max(modes.text.precision, modes.semantic.precision);
      worst = Math.min(worst, p - bar);
      const change = p - modes[`hybrid:${BASELINE}`].precision;
      changes.push(
        `${corpus.slice(0, 4)}/${kind.slice(0, 5)} ${change >= 0 ? "+" : ""}${change.toFixed(3)}`,
      );
    }
  }
  console.log(
    `  ${name.padEnd(34)}${worst >= -0.005 ? "pass" : "FAIL"} ${worst.toFixed(3).padStart(7)}  ${
      changes.join("  ")
    }`,
  );
}
