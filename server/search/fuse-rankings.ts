/**
 * Reciprocal rank fusion: an item's fused score is the sum over rankings of weight / (k + rank).
 * It needs no calibration between the rankings' own scores (text rank and cosine similarity live
 * on unrelated scales) and rewards items that both rankings place high.
 */

export interface Ranking<T> {
  name: string;
  /** Best first. */
  items: T[];
  /** How much the ranking (or one of its items) counts; default 1. */
  weight?: number | ((item: T) => number);
}

export interface FusedItem<T> {
  item: T;
  score: number;
  /** 1-based rank of the item in each ranking, null where it does not appear. */
  ranks: Record<string, number | null>;
}

/** The usual constant: dampens the gap between the top few ranks. */
export const RRF_K = 60;

/** Fuses rankings of items identified by `keyOf`; best first, ties by first appearance. */
export function fuseRankings<T>(
  rankings: Ranking<T>[],
  keyOf: (item: T) => string,
  k = RRF_K,
): FusedItem<T>[] {
  const fused = new Map<string, FusedItem<T>>();
  for (const ranking of rankings) {
    ranking.items.forEach((item, index) => {
      const key = keyOf(item);
      let entry = fused.get(key);
      if (!entry) {
        entry = {
          item,
          score: 0,
          ranks: Object.fromEntries(rankings.map((r) => [r.name, null])),
        };
        fused.set(key, entry);
      }
      entry.ranks[ranking.name] = index + 1;
      const weight = typeof ranking.weight === "function"
        ? ranking.weight(item)
        : ranking.weight ?? 1;
      entry.score += weight / (k + index + 1);
    });
  }
  // Array.prototype.sort is stable: equal scores keep the order of first appearance.
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
