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
  /** The events counted then, of which `docs` hold each word; null before. */
  counted: number | null;
}

/**
 * The tiers of `query` over its words that occur in some event (event_text_search_tiers), or null
 * when it has no searchable word. The tiers are empty when fewer than half of the meaningful words
 * occur: a listing then answers nothing, ranking its any-word matches.
 *
 * Read per search, except that a query whose every word occurs is answered again from memory for
 * REUSE_MS (per database handle, emptied when the statistics are recounted here): its answer then
 * changes only with the statistics, recounted when the events grew by a tenth
 * (server/db/text-stats.ts), or when one of its words leaves every event, which leaves its tier
 * empty for those seconds. A query with a word in no event is read every time, so that the first
 * event holding that word is found at once.
 */
export async function textQueryOf(sql: Sql, query: string): Promise<TextQuery | null> {
  let known = remembered.get(sql);
  if (!known) remembered.set(sql, known = new Map());
  const hit = known.get(query);
  if (hit && Date.now() - hit.at < REUSE_MS) return hit.text;
  const text = await readTextQuery(sql, query);
  if (text !== null && text.words.every((w) => w.docs !== null && w.docs > 0)) {
    if (known.size >= MAX_REMEMBERED) known.clear();
    known.set(query, { text, at: Date.now() });
  }
  return text;
}

/**
 * How long a query's tiers and statistics are reused: reading them is a fifth of a text search at
 * 100,000 events (2.5 of 13 ms of CPU on PostgreSQL 15, 6 of 26 on PGlite), and the same query
 * comes again within seconds (its next page, the text half of a hybrid search, a popular search).
 */
const REUSE_MS = 10_000;
/** Distinct queries remembered per database handle; the memory is emptied when full. */
const MAX_REMEMBERED = 1_000;

const remembered = new WeakMap<Sql, Map<string, { text: TextQuery; at: number }>>();

/** Forgets the remembered queries of `sql`: their statistics were recounted. */
export function forgetTextQueries(sql: Sql): void {
  remembered.delete(sql);
}

async function readTextQuery(sql: Sql, query: string): Promise<TextQuery | null> {
  const [row] = await sql<
    {
      tiers: string[];
      words: RankWord[] | null;
      mean_length: number | null;
      counted: number | null;
    }[]
  >`
    SELECT event_text_search_tiers(${query})::text[] AS tiers,
      (SELECT json_agg(json_build_object('word', r.word::text, 'idf', r.idf,
                                         'meaningful', r.meaningful, 'docs', r.docs))
       FROM event_text_rank_words(${query}) AS r) AS words,
      s.mean_length, s.docs AS counted
    FROM (SELECT) AS one LEFT JOIN text_corpus_stats s ON true`;
  // No word occurs in any event: nothing to walk for.
  if (row.words === null || row.words.every((w) => w.docs === 0)) return null;
  return {
    tiers: row.tiers,
    words: row.words,
    anyWord: anyWordOf(row.tiers, row.words),
    meanLength: row.mean_length,
    counted: row.counted,
  };
}

/** Any meaningful word, none of the tiers; null when that is nothing the tiers leave out. */
function anyWordOf(tiers: string[], words: RankWord[]): string | null {
  const meaningful = words.filter((w) => w.meaningful && w.docs !== 0);
  if (meaningful.length === 0 || (tiers.length > 0 && meaningful.length < 2)) return null;
  const any = `(${meaningful.map((w) => `(${w.word})`).join(" | ")})`;
  return tiers.length === 0 ? any : `${any} & !(${tiers.map((t) => `(${t})`).join(" | ")})`;
}
