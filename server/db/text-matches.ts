/**
 * The text ranking as event ids: events matching every word first, then those matching most of
 * the words (server/db/text-query.ts); within a tier, best first (ts_rank_cd) among its soonest
 * TEXT_RANK_CANDIDATES. Whole events are built by the caller, for the page it keeps only.
 */
import type { Sql } from "postgres";
import type { EventFilters } from "./event-filters.ts";
import { soonestMatches } from "./soonest-matches.ts";
import { textQueryOf } from "./text-query.ts";

/** An event of a ranking, by id, with its score there. */
export interface Match {
  id: string;
  score: number;
  /** Text ranking only: 0 when the event matches every word, higher for fewer. */
  tier?: number;
}

/**
 * Upper bound on the matches of one tier that a text ranking scores (at least the page).
 * Scoring reads every match's tsvector, so a query matching a fifth of 100,000 events would cost
 * hundreds of milliseconds; instead the soonest matches are scored (server/db/soonest-matches.ts).
 * A tier with fewer matches than this is ranked exactly.
 */
export const TEXT_RANK_CANDIDATES = 100;

/**
 * The best `limit` text matches of `query` within the filters, tier by tier. The score's whole
 * part counts the tiers below the event's, its fraction is the text rank (0-1).
 */
export async function textMatches(
  sql: Sql,
  query: string,
  filters: Omit<EventFilters, "q">,
  limit: number,
): Promise<Match[]> {
  const text = await textQueryOf(sql, query);
  if (text === null) return [];
  const matches: Match[] = [];
  for (let tier = 0; tier < text.tiers.length && matches.length < limit; tier++) {
    const rows = await rankTier(sql, {
      match: text.tiers[tier],
      rank: text.rank,
      filters,
      limit: limit - matches.length,
    });
    const below = text.tiers.length - 1 - tier;
    matches.push(...rows.map((row) => ({ id: row.id, score: below + row.score, tier })));
  }
  return matches;
}

async function rankTier(
  sql: Sql,
  o: { match: string; rank: string; filters: Omit<EventFilters, "q">; limit: number },
): Promise<{ id: string; score: number }[]> {
  const candidates = await soonestMatches(sql, {
    match: o.match,
    filters: o.filters,
    count: Math.max(TEXT_RANK_CANDIDATES, o.limit),
  });
  if (candidates.length === 0) return [];
  return await sql<{ id: string; score: number }[]>`
    -- Normalisation 32 maps the rank into 0-1, below the next tier's whole number.
    SELECT e.id, ts_rank_cd(e.search_vector, ${o.rank}::tsquery, 32)::float8 AS score
    FROM events e
    WHERE e.id = ANY(${candidates.map((c) => c.id)}::uuid[])
    ORDER BY score DESC, e.starts_at, e.id
    LIMIT ${o.limit}`;
}
