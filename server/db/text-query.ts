/**
 * The tiers of the `?q=` listing (GET /api/v1/events): events matching every word, then most of
 * the words, down to half of them, each tier soonest first, as defined once in SQL
 * (server/db/migrations/004_text_tiers.sql, 009_text_tiers_present.sql). Listings pass a tier to
 * the server as a plain value, planned with its values, so the planner sees the words it
 * estimates. Text search ranks by BM25F instead (server/db/text-matches.ts).
 */
import type { Sql } from "postgres";

/** The tiers of a query, best first. */
export interface TextQuery {
  /** Disjoint tsqueries (as text): every word, then most of the words, down to half of them. */
  tiers: string[];
}

/**
 * The tiers of `query` over its words that occur in some event (event_text_search_tiers), or null
 * when it has no searchable word. The tiers are empty when fewer than half of the meaningful words
 * occur: the listing then answers nothing.
 */
export async function textQueryOf(sql: Sql, query: string): Promise<TextQuery | null> {
  const [row] = await sql<{ tiers: string[] }[]>`
    SELECT event_text_search_tiers(event_text_normalised(${query}))::text[] AS tiers`;
  return row.tiers.length === 0 ? null : { tiers: row.tiers };
}
