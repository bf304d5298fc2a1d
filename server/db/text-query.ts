/**
 * What a text search looks for: the tiers of a query (every word, then most of the words), as
 * defined once in SQL (server/db/migrations/004_text_tiers.sql, 009_text_tiers_present.sql), and
 * the tsquery that scores events within a tier. Searches pass a tier to the server as a plain value,
 * planned with its values, so the planner sees the words it estimates.
 */
import type { Sql } from "postgres";

/** The tiers of a query, best first, and the tsquery that scores events within a tier. */
export interface TextQuery {
  /** Disjoint tsqueries (as text): every word, then most of the words, down to half of them. */
  tiers: string[];
  /** Any of the words: what ts_rank_cd weighs within a tier. */
  rank: string;
}

/**
 * The tiers of `query` over its words that occur in some event (event_text_search_tiers), or null
 * when none does or it has no searchable word. Read per search: they change with the data.
 */
export async function textQueryOf(sql: Sql, query: string): Promise<TextQuery | null> {
  const [row] = await sql<{ tiers: string[]; rank: string | null }[]>`
    SELECT event_text_search_tiers(${query})::text[] AS tiers,
           event_text_rank_query(${query})::text AS rank`;
  return row.rank === null || row.tiers.length === 0 ? null : { tiers: row.tiers, rank: row.rank };
}
