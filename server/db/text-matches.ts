/**
 * The text ranking as event ids: events matching every word first, then those matching most of
 * the words (server/db/text-query.ts), then, when those leave the page short, those matching any
 * word; within a tier, best first by a BM25-like score among its soonest TEXT_RANK_CANDIDATES.
 * Whole events are built by the caller, for the page it keeps only.
 *
 * The score per query word: its inverse document frequency (server/db/text-stats.ts) times its
 * weighted term frequency saturated as in BM25 (k1 1.2) and normalised by the event's text length
 * (distinct lexemes) against the mean (b 0.75). The weighted frequency is ts_rank_cd of that word
 * alone with field weights, title above topics above place and description: for one word it is
 * the sum of its occurrences' weights, read from that word's positions only (ts_rank instead sums
 * them with shrinking weight, 1, 1/4, 1/9, ..., which drowns the frequency: literal precision@10
 * on the FOSDEM corpus 0.675 against 0.706).
 *
 * Tiers stay in order: merging the fallback tiers into one BM25 ranking took the candidates from
 * their union's soonest, mostly single-word matches, and lost precision (FOSDEM paraphrases 0.41
 * -> 0.33). Scoring 200 candidates rather than 100 per tier: FOSDEM paraphrases 0.41 -> 0.46.
 */
import type { Sql } from "postgres";
import type { EventFilters } from "./event-filters.ts";
import { soonestMatches } from "./soonest-matches.ts";
import { type RankWord, textQueryOf } from "./text-query.ts";

/** An event of a ranking, by id, with its score there. */
export interface Match {
  id: string;
  score: number;
}

/** An event of the text ranking. */
export interface TextMatch extends Match {
  /** 0 when the event matches every word, higher for fewer. */
  tier: number;
  /** The BM25-like score alone (0 and up), comparable across tiers. */
  relevance: number;
}

/**
 * Upper bound on the matches of one tier that a text ranking scores (at least the page).
 * Scoring reads every match's tsvector, so a query matching a fifth of 100,000 events would cost
 * hundreds of milliseconds; instead the soonest matches are scored (server/db/soonest-matches.ts).
 * A tier with fewer matches than this is ranked exactly.
 */
export const TEXT_RANK_CANDIDATES = 200;

/** ts_rank_cd's weights for description (D), place and organiser (C), labels (B), title (A). */
const FIELD_WEIGHTS = "{0.5,0.5,0.8,1.0}";
const K1 = 1.2;
const B = 0.75;

/**
 * The best `limit` text matches of `query` within the filters, tier by tier. The score's whole
 * part counts the tiers below the event's, its fraction is the BM25-like score squashed into 0-1.
 */
export async function textMatches(
  sql: Sql,
  query: string,
  filters: Omit<EventFilters, "q">,
  limit: number,
): Promise<TextMatch[]> {
  const text = await textQueryOf(sql, query);
  if (text === null) return [];
  const tiers = text.anyWord === null ? text.tiers : [...text.tiers, text.anyWord];
  const matches: TextMatch[] = [];
  for (let tier = 0; tier < tiers.length && matches.length < limit; tier++) {
    const rows = await rankTier(sql, {
      match: tiers[tier],
      words: text.words,
      filters,
      limit: limit - matches.length,
    });
    const below = tiers.length - 1 - tier;
    matches.push(...rows.map((row) => ({
      id: row.id,
      score: below + row.score / (1 + row.score),
      tier,
      relevance: row.score,
    })));
  }
  return matches;
}

async function rankTier(
  sql: Sql,
  o: { match: string; words: RankWord[]; filters: Omit<EventFilters, "q">; limit: number },
): Promise<{ id: string; score: number }[]> {
  const candidates = await soonestMatches(sql, {
    match: o.match,
    filters: o.filters,
    count: Math.max(TEXT_RANK_CANDIDATES, o.limit),
  });
  if (candidates.length === 0) return [];
  return await sql<{ id: string; score: number }[]>`
    WITH candidate AS (
      SELECT e.id, e.starts_at, e.search_vector FROM events e
      WHERE e.id = ANY(${candidates.map((c) => c.id)}::uuid[])
    ), mean AS (
      SELECT coalesce((SELECT mean_length FROM text_corpus_stats),
                      (SELECT avg(length(search_vector)) FROM candidate), 1) AS length
    )
    SELECT c.id, (
      SELECT coalesce(sum(w.idf * f.tf * ${K1 + 1}::float8 / (f.tf + ${K1}::float8 *
               (${1 - B}::float8 + ${B}::float8 * length(c.search_vector)
                / greatest(m.length, 1)))), 0)
      FROM unnest(${o.words.map((w) => w.word)}::tsquery[], ${o.words.map((w) => w.idf)}::float8[])
        AS w(word, idf),
        LATERAL (SELECT ts_rank_cd(${FIELD_WEIGHTS}::float4[], c.search_vector, w.word, 0) AS tf)
          AS f
      WHERE f.tf > 0
    )::float8 AS score
    FROM candidate c, mean m
    ORDER BY score DESC, c.starts_at, c.id
    LIMIT ${o.limit}`;
}
