/**
 * Which phrases of a query some event holds as text, word after word (event_phrases_held,
 * migration 029): what query understanding leaves as words, never reads as a filter.
 */
import type { Sql } from "postgres";

/** The phrases (lower-cased) some event holds, among `phrases`. */
export async function phrasesHeld(sql: Sql, phrases: string[]): Promise<Set<string>> {
  if (phrases.length === 0) return new Set();
  const [row] = await sql<{ held: string[] }[]>`
    SELECT event_phrases_held(${phrases}::text[]) AS held`;
  return new Set(row.held);
}
