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
}

export const HYBRID_FUSION: FusionSettings = { everyWord: 3, partial: 0.5, floor: 0, k: 60 };

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
        weight: (m) => ((m as TextMatch).tier === 0 ? settings.everyWord : settings.partial),
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
