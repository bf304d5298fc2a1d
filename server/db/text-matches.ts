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
import { soonestMatches } from "./soonest-matches.ts";
import { type RankWord, type TextQuery, textQueryOf } from "./text-query.ts";

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

const B = 0.75;

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
  const rare = rarestWords(text.words, settings.rareBudget);
  const rareIds = await rareWordMatches(sql, { words: rare, filters, budget: settings.rareBudget });
  const candidates = new Set(rareIds);
  // When the rare words are every word that occurs and their matches came in whole, every event
  // matching any word is a candidate already: the tiers' walks could add none.
  const occurring = text.words.filter((w) => w.docs !== 0);
  const whole = rareIds.length < settings.rareBudget && rare.length === occurring.length &&
    occurring.every((w) => w.meaningful);
  if (!whole) await addSoonestOfTiers(sql, { text, filters, limit, settings, candidates });
  if (candidates.size === 0) return [];
  return await scored(sql, {
    ids: [...candidates],
    every: text.tiers[0] ?? null,
    words: text.words,
    settings,
    limit,
  });
}

/** The soonest matches of the tiers, tier after tier, and of any word when the page is short. */
async function addSoonestOfTiers(
  sql: Sql,
  o: {
    text: TextQuery;
    filters: Omit<EventFilters, "q">;
    limit: number;
    settings: TextRankSettings;
    candidates: Set<string>;
  },
): Promise<void> {
  const { text, filters, candidates } = o;
  const perTier = Math.max(o.settings.perTier, o.limit);
  let drawn = 0;
  for (const tier of text.tiers) {
    if (drawn >= perTier) break;
    const found = await soonestMatches(sql, { match: tier, filters, count: perTier - drawn });
    for (const { id } of found) candidates.add(id);
    drawn += found.length;
  }
  if (candidates.size < o.limit && text.anyWord !== null) {
    const found = await soonestMatches(sql, { match: text.anyWord, filters, count: perTier });
    for (const { id } of found) candidates.add(id);
  }
}

async function scored(
  sql: Sql,
  o: {
    ids: string[];
    every: string | null;
    words: RankWord[];
    settings: TextRankSettings;
    limit: number;
  },
): Promise<TextMatch[]> {
  const { k1, fieldWeights, everyWordBoost } = o.settings;
  const allIdf = o.words.reduce((sum, w) => sum + w.idf, 0);
  const rows = await sql<{ id: string; score: number; every: boolean; matched: number }[]>`
    WITH candidate AS (
      -- Decompressed once here (a new tsvector), not again by each function reading it.
      SELECT e.id, e.starts_at, e.search_vector || ''::tsvector AS search_vector,
        coalesce(e.search_vector @@ ${o.every}::tsquery, false) AS every
      FROM events e
      WHERE e.id = ANY(${o.ids}::uuid[])
    ), mean AS (
      SELECT coalesce((SELECT mean_length FROM text_corpus_stats),
                      (SELECT avg(length(search_vector)) FROM candidate), 1) AS length
    ), relevance AS (
      SELECT c.id, c.starts_at, c.every, s.score, s.matched
      FROM candidate c, mean m, LATERAL (
        SELECT coalesce(sum(w.idf * f.tf * ${k1 + 1}::float8 / (f.tf + ${k1}::float8 *
                 (${1 - B}::float8 + ${B}::float8 * length(c.search_vector)
                  / greatest(m.length, 1)))), 0)::float8 AS score,
          coalesce(sum(w.idf), 0)::float8 AS matched
        FROM unnest(${o.words.map((w) => w.word)}::tsquery[],
                    ${o.words.map((w) => w.idf)}::float8[]) AS w(word, idf),
          LATERAL (SELECT ts_rank_cd(${fieldWeights}::float4[], c.search_vector, w.word, 0) AS tf)
            AS f
        WHERE f.tf > 0
      ) AS s
    )
    SELECT r.id, r.every, r.matched,
      (r.score * CASE WHEN r.every THEN ${everyWordBoost}::float8 ELSE 1 END)::float8 AS score
    FROM relevance r
    ORDER BY score DESC, r.starts_at, r.id
    LIMIT ${o.limit}`;
  return rows.map((r) => ({
    id: r.id,
    score: r.score,
    everyWord: r.every,
    coverage: allIdf > 0 ? Math.min(1, r.matched / allIdf) : 0,
  }));
}
