/**
 * The text ranking as event ids, best first by a BM25-like score over candidates drawn by
 * relevance and by date, all ranked together; whole events are built by the caller, for the page
 * it keeps only.
 *
 * Candidates:
 * - every event holding one of the query's rarest words (server/db/rare-word-matches.ts), rarest
 *   first while they add up to at most `rareBudget` events: where BM25 puts its best events;
 * - the soonest `perTier` matches of each tier (events matching every word, then most of the
 *   words, server/db/text-query.ts), tier after tier until `perTier` are drawn: the best events
 *   when every word is common, which no bounded walk can rank exactly;
 * - when those leave the page short, the soonest matches of any meaningful word.
 * A corpus whose words are all rarer than the budget is ranked exactly, as BM25 over every event
 * would rank it.
 *
 * The score per query word (up to ten): its inverse document frequency (server/db/text-stats.ts)
 * times its weighted term frequency saturated as in BM25 (k1) and normalised by the event's text
 * length (distinct lexemes) against the mean (b 0.75). The weighted frequency is ts_rank_cd of that
 * word alone with field weights, title above topics above description and place: for one word it is
 * the sum of its occurrences' weights, read from that word's positions only (ts_rank instead sums
 * them with shrinking weight, 1, 1/4, 1/9, ..., which drowns the frequency: literal precision@10
 * on the FOSDEM corpus 0.675 against 0.706). An event matching every word has its score
 * multiplied by `everyWordBoost`: a boost, not a tier, so two rare words outrank three common ones.
 */
import type { Sql } from "postgres";
import type { EventFilters } from "./event-filters.ts";
import { rarestWords, rareWordMatches } from "./rare-word-matches.ts";
import { type Soonest, soonestMatches } from "./soonest-matches.ts";
import { type TextQuery, textQueryOf } from "./text-query.ts";
import type { ScoreWords } from "./text-score-parts.ts";
import { bestScoreWithout, type Candidate, rankedByScore } from "./text-bm25.ts";

/** An event of a ranking, by id, with its score there. */
export interface Match {
  id: string;
  score: number;
}

/** An event of the text ranking. */
export interface TextMatch extends Match {
  /** Whether the event matches every word of the query. */
  everyWord: boolean;
  /** The share of the query's words the event holds, each word counting its idf (0-1). */
  coverage: number;
}

/** How text ranking draws and scores its candidates (TEXT_RANK is what search uses). */
export interface TextRankSettings {
  /** Soonest matches drawn from the tiers, tier after tier (at least the page). */
  perTier: number;
  /** Events the rarest words' matches may add up to. */
  rareBudget: number;
  /** Multiplies the score of an event matching every word. */
  everyWordBoost: number;
  /** ts_rank_cd's weights for description (D), place and organiser (C), labels (B), title (A). */
  fieldWeights: [number, number, number, number];
  /** BM25's term frequency saturation. */
  k1: number;
}

/**
 * Scoring reads every candidate's tsvector, so candidates are bounded: a query matching a fifth of
 * 100,000 events would otherwise cost hundreds of milliseconds. Chosen on scripts/eval-search.ts
 * (docs/search-quality.md, --text-variants): candidates from the rarest words lifted FOSDEM
 * paraphrases from 0.487 (tiers alone) to 0.516 precision@10, as much as ranking every event; a
 * description weighing 0.6 rather than 0.5 and k1 0.8 rather than 1.2 moved them by one hit, and
 * equal field weights cost FOSDEM literals (0.716 -> 0.697).
 */
export const TEXT_RANK: TextRankSettings = {
  perTier: 200,
  rareBudget: 800,
  everyWordBoost: 1.5,
  fieldWeights: [0.6, 0.5, 0.8, 1.0],
  k1: 0.8,
};

/** The best `limit` text matches of `query` within the filters. `score` is the BM25-like score. */
export async function textMatches(
  sql: Sql,
  query: string,
  filters: Omit<EventFilters, "q">,
  limit: number,
  settings: TextRankSettings = TEXT_RANK,
): Promise<TextMatch[]> {
  const text = await textQueryOf(sql, query);
  if (text === null) return [];
  const score: ScoreWords = {
    words: text.words.map((w) => w.word),
    fieldWeights: settings.fieldWeights,
    every: text.tiers[0] ?? null,
  };
  const rare = rarestWords(text.words, settings.rareBudget);
  const rareFound = await rareWordMatches(sql, {
    words: rare,
    filters,
    budget: settings.rareBudget,
    score,
  });
  const candidates = new Map<string, Candidate>(rareFound.map((c) => [c.id, c]));
  const complete = rareFound.length < settings.rareBudget;
  // When the rare words are every word that occurs and their matches came in whole, every event
  // matching any word is a candidate already: the tiers' walks could add none.
  const occurring = text.words.filter((w) => w.docs !== 0);
  if (complete && rare.length === occurring.length && occurring.every((w) => w.meaningful)) {
    return rankedByScore(rareFound, { text, settings, limit });
  }
  // When the rare words' matches came in whole and the page's last of them outscores whatever an
  // event without a rare word could score, the tiers' candidates cannot reach the page: the same
  // page, without their walks. (Not before the statistics are counted: the mean length then
  // comes from the candidates, so every candidate counts.)
  if (complete && text.meanLength !== null && limit > 0 && rareFound.length >= limit) {
    const page = rankedByScore(rareFound, { text, settings, limit });
    if (page[limit - 1].score > bestScoreWithout(rare, { text, settings })) return page;
  }
  await addSoonestOfTiers(sql, { text, filters, limit, settings, candidates, score });
  return rankedByScore([...candidates.values()], { text, settings, limit });
}

/**
 * The share of events the every-word tier matches by the statistics, its words taken as
 * independent; undefined before they were counted. (The other tiers are walked after it only when
 * it has few matches in all, and are unions, which the statistics estimate poorly.)
 */
function everyWordShare(text: TextQuery): number | undefined {
  const every = text.tiers[0];
  if (every === undefined || !text.counted) return undefined;
  let share = 1;
  for (const w of text.words) {
    if (w.docs === null) return undefined;
    if (w.docs > 0 && every.includes(w.word)) share *= Math.min(1, w.docs / text.counted);
  }
  return share;
}

/** The soonest matches of the tiers, tier after tier, and of any word when the page is short. */
async function addSoonestOfTiers(
  sql: Sql,
  o: {
    text: TextQuery;
    filters: Omit<EventFilters, "q">;
    limit: number;
    settings: TextRankSettings;
    candidates: Map<string, Candidate>;
    score: ScoreWords;
  },
): Promise<void> {
  const { text, filters, candidates, score } = o;
  const add = (found: Soonest[]) => {
    for (const c of found) if (!candidates.has(c.id)) candidates.set(c.id, c as Candidate);
  };
  const perTier = Math.max(o.settings.perTier, o.limit);
  let drawn = 0;
  for (const [i, tier] of text.tiers.entries()) {
    if (drawn >= perTier) break;
    const found = await soonestMatches(sql, {
      match: tier,
      filters,
      count: perTier - drawn,
      score,
      expectedShare: i === 0 ? everyWordShare(text) : undefined,
    });
    add(found);
    drawn += found.length;
  }
  if (candidates.size < o.limit && text.anyWord !== null) {
    add(await soonestMatches(sql, { match: text.anyWord, filters, count: perTier, score }));
  }
}
