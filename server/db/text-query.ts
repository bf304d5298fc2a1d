/**
 * What a text search looks for: the tiers of a query (every word, then most of the words), as
 * defined once in SQL (server/db/migrations/004_text_tiers.sql, 009_text_tiers_present.sql), and
 * the words that score events with their inverse document frequencies and how many events hold
 * them (012, 015). Searches
 * pass a tier to the server as a plain value, planned with its values, so the planner sees the
 * words it estimates.
 */
import type { Sql } from "postgres";

/** A word of the query that scores events: its tsquery (as text) and BM25 idf. */
export interface RankWord {
  word: string;
  idf: number;
  /** Not a single letter: only such words may match on their own. */
  meaningful: boolean;
  /**
   * At most how many events hold the word, from the statistics (migration 015): 0 when none does;
   * null before they were first counted.
   */
  docs: number | null;
}

/** The tiers of a query, best first, and the words that score events within a tier. */
export interface TextQuery {
  /** Disjoint tsqueries (as text): every word, then most of the words, down to half of them. */
  tiers: string[];
  words: RankWord[];
  /** Events matching any meaningful word but none of the tiers: what fills a short page. */
  anyWord: string | null;
  /** The events' mean text length (lexemes) when the statistics were counted; null before. */
  meanLength: number | null;
}

/**
 * The tiers of `query` over its words that occur in some event (event_text_search_tiers), or null
 * when it has no searchable word. The tiers are empty when fewer than half of the meaningful words
 * occur: a listing then answers nothing, ranking its any-word matches. Read per search: they
 * change with the data.
 */
export async function textQueryOf(sql: Sql, query: string): Promise<TextQuery | null> {
  const [row] = await sql<
    { tiers: string[]; words: RankWord[] | null; mean_length: number | null }[]
  >`
    SELECT event_text_search_tiers(${query})::text[] AS tiers,
      (SELECT json_agg(json_build_object('word', r.word::text, 'idf', r.idf,
                                         'meaningful', r.meaningful, 'docs', r.docs))
       FROM event_text_rank_words(${query}) AS r) AS words,
      (SELECT mean_length FROM text_corpus_stats) AS mean_length`;
  // No word occurs in any event: nothing to walk for.
  if (row.words === null || row.words.every((w) => w.docs === 0)) return null;
  return {
    tiers: row.tiers,
    words: row.words,
    anyWord: anyWordOf(row.tiers, row.words),
    meanLength: row.mean_length,
  };
}

/** Any meaningful word, none of the tiers; null when that is nothing the tiers leave out. */
function anyWordOf(tiers: string[], words: RankWord[]): string | null {
  const meaningful = words.filter((w) => w.meaningful && w.docs !== 0);
  if (meaningful.length === 0 || (tiers.length > 0 && meaningful.length < 2)) return null;
  const any = `(${meaningful.map((w) => `(${w.word})`).join(" | ")})`;
  return tiers.length === 0 ? any : `${any} & !(${tiers.map((t) => `(${t})`).join(" | ")})`;
}
