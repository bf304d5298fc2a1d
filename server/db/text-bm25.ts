/**
 * The BM25-like score of text ranking (server/db/text-matches.ts) summed from the parts each
 * candidate's statement read (server/db/text-score-parts.ts), and the most an event could score
 * without some of the words, which tells when further candidates cannot reach the page.
 *
 * Per query word: its idf times its weighted term frequency saturated as in BM25 (k1) and
 * normalised by the event's length against the mean (b 0.75); an event matching every word has
 * its sum multiplied by the every-word boost. The arithmetic is in the order of operations of the
 * SQL that summed it before (float8 there, doubles here), so scores and order are unchanged.
 */
import type { RankWord, TextQuery } from "./text-query.ts";
import type { ScoreParts } from "./text-score-parts.ts";

const B = 0.75;

/** A candidate of text ranking with what its score reads. */
export type Candidate = ScoreParts & { id: string; starts_at: Date };

/** The settings the score reads (server/db/text-matches.ts TEXT_RANK). */
export interface Bm25Settings {
  /** BM25's term frequency saturation. */
  k1: number;
  /** Multiplies the score of an event matching every word. */
  everyWordBoost: number;
}

/** A scored candidate (server/db/text-matches.ts TextMatch). */
export interface ScoredMatch {
  id: string;
  score: number;
  everyWord: boolean;
  /** The share of the query's words the event holds, each word counting its idf (0-1). */
  coverage: number;
}

/** The best `limit` candidates by score, then by start, then by id. */
export function rankedByScore(
  candidates: Candidate[],
  o: { text: TextQuery; settings: Bm25Settings; limit: number },
): ScoredMatch[] {
  if (candidates.length === 0) return [];
  const { k1, everyWordBoost } = o.settings;
  const words = o.text.words;
  const allIdf = words.reduce((sum, w) => sum + w.idf, 0);
  // Before the statistics are first counted, the candidates' mean length stands in.
  const mean = o.text.meanLength ??
    candidates.reduce((sum, c) => sum + c.length, 0) / candidates.length;
  const scored = candidates.map((c) => {
    let score = 0;
    let matched = 0;
    for (let i = 0; i < words.length; i++) {
      const tf = c.tfs[i];
      if (!(tf > 0)) continue;
      score += words[i].idf * tf * (k1 + 1) /
        (tf + k1 * ((1 - B) + B * c.length / Math.max(mean, 1)));
      matched += words[i].idf;
    }
    return {
      id: c.id,
      startsAt: c.starts_at.getTime(),
      score: score * (c.every ? everyWordBoost : 1),
      everyWord: c.every,
      coverage: allIdf > 0 ? Math.min(1, matched / allIdf) : 0,
    };
  });
  scored.sort((a, b) =>
    b.score - a.score || a.startsAt - b.startsAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
  return scored.slice(0, o.limit).map(({ id, score, everyWord, coverage }) => ({
    id,
    score,
    everyWord,
    coverage,
  }));
}

/**
 * More than any event holding none of `without` can score: each other word that occurs at full
 * saturation (a term frequency's factor tf (k1 + 1) / (tf + k1 x) stays below k1 + 1), with the
 * every-word boost unless one of `without` is a word of the every-word tier.
 */
export function bestScoreWithout(
  without: RankWord[],
  o: { text: TextQuery; settings: Bm25Settings },
): number {
  const { k1, everyWordBoost } = o.settings;
  const left = new Set(without.map((w) => w.word));
  let best = 0;
  for (const w of o.text.words) if (!left.has(w.word) && w.docs !== 0) best += w.idf * (k1 + 1);
  // The every-word tier is the conjunction of its words' tsqueries: one of them in its text is a
  // word every such event holds. (Not found there, the boost is assumed: a looser bound.)
  const every = o.text.tiers[0];
  const boosted = every !== undefined && !without.some((w) => every.includes(w.word));
  // Room for rounding: the factor is computed in doubles.
  return best * (boosted ? everyWordBoost : 1) * (1 + 1e-9);
}
