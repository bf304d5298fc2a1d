/** Ranking measures at a cut-off, for judged queries whose every relevant event is known. */

/** precision@k, nDCG@k and recall@k of one ranking. */
export interface Measures {
  precision: number;
  ndcg: number;
  recall: number;
}

/**
 * precision@k counts the relevant among the first k out of k, or out of the relevant events when
 * fewer exist (so a perfect answer scores 1); nDCG@k with binary gains; recall@k out of all.
 */
export function measure(ranked: string[], relevant: Set<string>, k = 10): Measures {
  if (relevant.size === 0) return { precision: 0, ndcg: 0, recall: 0 };
  const top = ranked.slice(0, k);
  const hits = top.filter((id) => relevant.has(id)).length;
  const dcg = top.reduce((s, id, i) => s + (relevant.has(id) ? 1 / Math.log2(i + 2) : 0), 0);
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return {
    precision: hits / Math.min(k, relevant.size),
    ndcg: dcg / ideal,
    recall: hits / relevant.size,
  };
}

/** The mean of each measure. */
export function meanOf(all: Measures[]): Measures {
  const n = Math.max(1, all.length);
  return {
    precision: all.reduce((s, m) => s + m.precision, 0) / n,
    ndcg: all.reduce((s, m) => s + m.ndcg, 0) / n,
    recall: all.reduce((s, m) => s + m.recall, 0) / n,
  };
}
