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
}

/**
 * Measured on both corpora (docs/search-quality.md, variant "every2-floor0.3-k20"): a smaller k
 * lets each ranking's first places count more, and the floor drops unrelated events. Weighing
 * partial text matches lower (0.5) helped conference titles' paraphrases (0.323 -> 0.338) but
 * cost FOSDEM abstracts' (0.466 -> 0.403), so they weigh as much as semantic matches.
 */
export const HYBRID_FUSION: FusionSettings = { everyWord: 2, partial: 1, floor: 0.3, k: 20 };

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
  return fuseRankings<Match>(
    [
      {
        name: "text",
        items: text,
        weight: (m) => textWeight(m as TextMatch, settings),
      },
      { name: "semantic", items: near },
    ],
    (m) => m.id,
    settings.k,
  ).map((f) => ({
    id: f.item.id,
    score: f.score,
    ranks: { text: f.ranks.text, semantic: f.ranks.semantic },
  }));
}

function textWeight(m: TextMatch, settings: FusionSettings): number {
  if (m.everyWord) return settings.everyWord;
  if (!settings.byCoverage) return settings.partial;
  return settings.partial + (settings.everyWord - settings.partial) * m.coverage;
}
