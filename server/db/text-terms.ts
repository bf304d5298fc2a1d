/**
 * What a text search scores: the query's words (event_text_terms, migration 029, after the rewrite
 * of technologists' spellings that the events' text gets too, event_text_normalised, 037), each as the
 * lexemes of its parts and the single lexemes that spell it whole, with how many events hold each
 * lexeme, the impact of its best posting, and the corpus' size and total length, all as of this
 * statement: the statistics change in the transaction that changes the events, so a search right
 * after a push ranks with them.
 */
import type { Sql } from "postgres";
import { bestImpact } from "./text-postings.ts";

/** A word of the query: it occurs where all its parts occur, or one of its whole spellings. */
export interface TextWord {
  parts: string[];
  wholes: string[];
}

/** The words and the statistics the score reads. */
export interface TextTerms {
  words: TextWord[];
  /** Events holding each lexeme of the words. */
  docs: Map<string, number>;
  /** The impact of each lexeme's best posting (text-postings.ts; 0 when no event holds it). */
  tops: Map<string, number>;
  /** Events stored. */
  events: number;
  /** Their mean length (distinct lexemes of the text). */
  meanLength: number;
}

/** At most this many words of a query score events. */
export const MAX_WORDS = 10;

/**
 * The scoring words of `query` and their statistics; no words when it has none. One statement:
 * on the embedded database every statement of a search waits for the one before.
 */
export async function textTermsOf(sql: Sql, query: string): Promise<TextTerms> {
  const [row] = await sql<
    {
      words: TextWord[];
      lexemes: Record<string, { docs: string; top: number }>;
      events: string;
      lengths: string;
    }[]
  >`
    WITH w AS MATERIALIZED (
      SELECT t.parts, t.wholes, t.n
      FROM event_text_search_terms(event_text_normalised(${query}), ${MAX_WORDS})
        WITH ORDINALITY AS t (parts, wholes, n)
    )
    SELECT
      (SELECT coalesce(json_agg(json_build_object('parts', w.parts, 'wholes', w.wholes)
                                ORDER BY w.n), '[]') FROM w) AS words,
      (SELECT coalesce(json_object_agg(d.lexeme, json_build_object('docs', d.docs,
                         'top', coalesce(${bestImpact(sql, sql`d.lexeme`)}, 0))), '{}')
       FROM text_lexeme_docs(ARRAY(SELECT DISTINCT l FROM w, unnest(w.parts || w.wholes) AS l))
         AS d) AS lexemes,
      t.docs AS events, t.lengths
    FROM text_corpus_totals() AS t`;
  const events = Number(row.events);
  const lexemes = Object.entries(row.lexemes);
  return {
    words: row.words,
    docs: new Map(lexemes.map(([lexeme, l]) => [lexeme, Number(l.docs)])),
    tops: new Map(lexemes.map(([lexeme, l]) => [lexeme, l.top])),
    events,
    meanLength: events > 0 ? Number(row.lengths) / events : 1,
  };
}
