/**
 * What a text search scores: the query's words (event_text_terms, migration 029, after the rewrite
 * of technologists' spellings that the events' text gets too, event_text_normalised, 037), each as the
 * lexemes of its parts and the single lexemes that spell it whole, with how many events hold each
 * lexeme and the corpus' size and total length, all as of this statement: the statistics change in
 * the transaction that changes the events, so a search right after a push ranks with them.
 */
import type { Sql } from "postgres";

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
  /** Events stored. */
  events: number;
  /** Their mean length (distinct lexemes of the text). */
  meanLength: number;
}

/** At most this many words of a query score events. */
export const MAX_WORDS = 10;

/** The scoring words of `query` and their statistics; no words when it has none. */
export async function textTermsOf(sql: Sql, query: string): Promise<TextTerms> {
  const words = await sql<TextWord[]>`
    SELECT parts, wholes
    FROM event_text_search_terms(event_text_normalised(${query}), ${MAX_WORDS})`;
  const lexemes = [...new Set(words.flatMap((w) => [...w.parts, ...w.wholes]))];
  const [counts, [totals]] = await Promise.all([
    sql<{ lexeme: string; docs: string }[]>`
      SELECT lexeme, docs FROM text_lexeme_docs(${lexemes}::text[])`,
    sql<{ docs: string; lengths: string }[]>`SELECT docs, lengths FROM text_corpus_totals()`,
  ]);
  const events = Number(totals.docs);
  return {
    words: [...words],
    docs: new Map(counts.map((c) => [c.lexeme, Number(c.docs)])),
    events,
    meanLength: events > 0 ? Number(totals.lengths) / events : 1,
  };
}
