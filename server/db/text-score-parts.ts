/**
 * What the BM25-like score of text ranking (server/db/text-matches.ts) reads from an event's text:
 * each query word's weighted term frequency, the text's length (distinct lexemes), and whether it
 * matches every word. Read by the very statement that finds a candidate (the rarest words'
 * matches, a tier's walk in start order), on the rows it has just read: a separate scoring
 * statement cost a round trip and read every candidate's text a second time (on PostgreSQL at
 * 100,000 events about a quarter of a text search). The score itself is summed by the caller.
 */
import type { Fragment, Sql } from "postgres";

/** The words a score reads, and how. */
export interface ScoreWords {
  /** The scoring words' tsqueries (as text), in the query's order. */
  words: string[];
  /** ts_rank_cd's weights for description (D), place and organiser (C), labels (B), title (A). */
  fieldWeights: [number, number, number, number];
  /** The every-word tier (a tsquery as text), or null when there is none. */
  every: string | null;
}

/** An event's score parts, as `withScoreParts` selects them. */
export interface ScoreParts {
  /**
   * Per word of `ScoreWords.words`, in that order: ts_rank_cd of that word alone with the field
   * weights, which for one word is the sum of its occurrences' weights (0: absent).
   */
  tfs: number[];
  /** Distinct lexemes of the event's text. */
  length: number;
  /** Whether the event matches the every-word tier. */
  every: boolean;
}

/**
 * The rows of `candidates` (a statement selecting `id`, `starts_at` and the event's search_vector
 * as `text`) with the columns of ScoreParts, in start order. The texts come with the rows the
 * candidate statement read: fetching them again by primary key cost more than the scoring itself
 * on PGlite.
 */
export function withScoreParts(sql: Sql, candidates: Fragment, o: ScoreWords): Fragment {
  // One call per word written out, not a sub-select over an array of words: that sub-select's
  // start-up per candidate was half the cost of scoring (2,000 candidates of three words on
  // PostgreSQL 15: 10.3 ms against 5.3).
  const tf = (word: string) =>
    sql`ts_rank_cd(${o.fieldWeights}::float4[], c.text, ${word}::tsquery, 0)::float8`;
  const tfs = o.words.length === 0
    ? sql`'{}'::float8[]`
    : sql`ARRAY[${o.words.slice(1).reduce((list, w) => sql`${list}, ${tf(w)}`, tf(o.words[0]))}]`;
  // A text past about 2 kB is stored compressed and each function decompresses it anew; most
  // are shorter, and a copy decompressed once would cost every candidate a pass over its text.
  return sql`
    SELECT c.id, c.starts_at, ${tfs} AS tfs, length(c.text) AS length,
      coalesce(c.text @@ ${o.every}::tsquery, false) AS every
    FROM (${candidates}) c
    ORDER BY c.starts_at, c.id`;
}
