/**
 * Statements whose best plan depends on their values. postgres.js prepares every statement by
 * name, and after five runs PostgreSQL may settle on one generic plan that cannot see the values.
 * For a text match that plan assumes every word is rare: a word in most events then makes it
 * fetch and sort every match (hundreds of milliseconds at 100,000 events) where reading events in
 * start order would stop after a few. An unnamed statement is planned for the values it runs
 * with, at the price of planning it each time (well under a millisecond for these statements).
 */
import type { PendingQuery, Row } from "postgres";

/** Runs `query` as an unnamed statement, planned for its actual values. Call before awaiting. */
export function plannedWithValues<T extends readonly Row[]>(
  query: PendingQuery<T>,
): PendingQuery<T> {
  // postgres.js reads this option when the query is sent, which happens on the first await.
  (query as unknown as { options: { prepare?: boolean } }).options.prepare = false;
  return query;
}
