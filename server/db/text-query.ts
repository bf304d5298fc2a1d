/**
 * What a text search looks for: the tiers of a query (every word, then most of the words), as
 * defined once in SQL by event_text_tiers (server/db/migrations/004_text_tiers.sql), and the
 * tsquery that scores events within a tier. Searches pass a tier to the server as a plain value,
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

/** The tiers of `query`, or null when it has no searchable word (only stop words, punctuation). */
export async function textQueryOf(sql: Sql, query: string): Promise<TextQuery | null> {
  const cached = cache.get(query);
  if (cached !== undefined) {
    // Re-insert: a Map iterates in insertion order, so the oldest entry stays first.
    cache.delete(query);
    cache.set(query, cached);
    return cached;
  }
  const [row] = await sql<{ tiers: string[]; rank: string | null }[]>`
    SELECT event_text_tiers(${query})::text[] AS tiers,
           event_text_rank_query(${query})::text AS rank`;
  const text = row.rank === null || row.tiers.length === 0
    ? null
    : { tiers: row.tiers, rank: row.rank };
  cache.set(query, text);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return text;
}

// Shared by every database safely: the tiers depend only on the text, the migrations (applied
// before anything runs) and PostgreSQL's built-in English configuration.
const cache = new Map<string, TextQuery | null>();
const CACHE_SIZE = 1000;
