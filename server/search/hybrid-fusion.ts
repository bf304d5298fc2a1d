/**
 * How hybrid search merges its two rankings: weighted reciprocal rank fusion
 * (server/search/fuse-rankings.ts) where the text ranking's events matching every word count
 * more (a literal match is strong evidence: "micropython" found by its name must not sink under
 * merely similar events), and semantic candidates below a similarity floor are left out instead
 * of filling the page with noise. Chosen on scripts/eval-search.ts (docs/search-quality.md).
 */
import type { Match, TextMatch } from "../db/text-matches.ts";
import { fuseRankings } from "./fuse-rankings.ts";

/** The fusion's settings; HYBRID_FUSION is what search uses. */
export interface FusionSettings {
  /** Weight of a text match of every word (semantic matches weigh 1). */
  everyWord: number;
  /** Weight of a text match of some of the words. */
  partial: number;
  /** Cosine similarity below which a semantic candidate is left out. */
  floor: number;
  /** The reciprocal rank constant. */
  k: number;
  /**
   * Whether a partial text match weighs between `partial` and `everyWord` by the share of the
   * query's words (by idf) it holds, rather than `partial` alone.
   */
  byCoverage?: boolean;
  /**
   * With `byCoverage`, the share is raised to this power (default 1): above 1, a match of half a
   * query's words weighs nearer `partial` than `everyWord`.
   */
  coveragePower?: number;
  /**
   * When no text match holds at least this share of the query's words, the text ranking is weak
   * evidence for this query (a paraphrase of short texts), and partial shares are squared.
   */
  weakTextBelow?: number;
  /** Weight of a semantic match (default 1). */
  semantic?: number;
  /**
   * A semantic match's weight grows by this much per unit of cosine similarity above
   * `similarityPivot` (and shrinks below it, to a quarter at least); 0 or absent: fixed weight.
   */
  similaritySlope?: number;
  similarityPivot?: number;
  /**
   * Whether text matches are judged against every word of the query, counting the words no
   * event holds (TextMatch.known), rather than against the words some event holds only.
   */
  wholeQuery?: boolean;
}

/**
 * Measured on both corpora (docs/search-quality.md, scripts/eval-fusion.ts): a text match of every
 * word of the query weighs 3, a partial one between 0.5 and 3 by the share of the query's idf it
 * holds (words no event holds counting too: conference paraphrases 0.310 -> 0.332, semantic 0.327),
 * squared when no match holds half the query (meaning leads: squared always, FOSDEM paraphrases
 * 0.547 -> 0.516), a semantic one 1. k 15 (20 before) lets each ranking's first places count a
 * little more: FOSDEM literals 0.722 -> 0.725 (text 0.728), place queries 0.615 -> 0.620, the
 * rest unchanged; 10 and 15 meet the bar, 12 passes it but costs FOSDEM paraphrases 0.006, 20
 * misses FOSDEM literals by 0.001: a difference of one or two relevant events.
 */
export const HYBRID_FUSION: FusionSettings = {
  everyWord: 3,
  partial: 0.5,
  floor: 0.3,
  k: 15,
  byCoverage: true,
  weakTextBelow: 0.5,
  wholeQuery: true,
};

/** One event of the fused ranking. */
export interface FusedMatch {
  id: string;
  score: number;
  ranks: { text: number | null; semantic: number | null };
}

/** Fuses the text and semantic rankings, best first. */
export function fuseHybrid(
  text: TextMatch[],
  semantic: Match[],
  settings: FusionSettings = HYBRID_FUSION,
): FusedMatch[] {
  const near = semantic.filter((m) => m.score >= settings.floor);
  if (settings.wholeQuery) text = text.map(againstWholeQuery);
  const weak = settings.weakTextBelow !== undefined &&
    !text.some((m) => m.everyWord || m.coverage >= settings.weakTextBelow!);
  const textSettings = weak ? { ...settings, coveragePower: 2 } : settings;
  return fuseRankings<Match>(
    [
      {
        name: "text",
        items: text,
        weight: (m) => textWeight(m as TextMatch, textSettings),
      },
      { name: "semantic", items: near, weight: (m) => semanticWeight(m, settings) },
    ],
    (m) => m.id,
    settings.k,
  ).map((f) => ({
    id: f.item.id,
    score: f.score,
    ranks: { text: f.ranks.text, semantic: f.ranks.semantic },
  }));
}

/**
 * A match judged against every word of the query: where some of the query's words are held by no
 * event (a paraphrase against conference names), holding all the others is a partial match, and
 * its share of the query counts the missing words too.
 */
function againstWholeQuery(m: TextMatch): TextMatch {
  if (m.known >= 1) return m;
  return { ...m, everyWord: false, coverage: m.coverage * m.known };
}

function semanticWeight(m: Match, settings: FusionSettings): number {
  const slope = settings.similaritySlope ?? 0;
  const bySimilarity = Math.max(0.25, 1 + slope * (m.score - (settings.similarityPivot ?? 0.5)));
  return (settings.semantic ?? 1) * bySimilarity;
}

function textWeight(m: TextMatch, settings: FusionSettings): number {
  if (m.everyWord) return settings.everyWord;
  if (!settings.byCoverage) return settings.partial;
  const share = m.coverage ** (settings.coveragePower ?? 1);
  return settings.partial + (settings.everyWord - settings.partial) * share;
}
