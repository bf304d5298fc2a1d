/**
 * The document frequencies BM25 ranking reads (migration 012): refreshed from the whole table now
 * and then, never per query. Until the first refresh every word counts as equally rare, which
 * ranks by term frequency and field alone.
 */
import type { Sql } from "postgres";
import { forgetTextQueries } from "./text-query.ts";

/** Recounts every lexeme's events and the mean text length (reads the whole table). */
export async function refreshTextStats(sql: Sql): Promise<void> {
  await sql`SELECT refresh_text_stats()`;
  forgetTextQueries(sql);
}

/**
 * Refreshes when never done, or when the number of events moved by more than a tenth (at least
 * STALE_EVENTS) since: frequencies shift slowly, and at a million events a refresh reads them all.
 * Returns whether it refreshed.
 */
export async function refreshTextStatsIfStale(sql: Sql): Promise<boolean> {
  const [row] = await sql<{ counted: number | null; now: number }[]>`
    SELECT (SELECT docs FROM text_corpus_stats) AS counted, (SELECT count(*) FROM events)::int AS now`;
  if (
    row.counted !== null &&
    Math.abs(row.now - row.counted) <= Math.max(STALE_EVENTS, row.counted / 10)
  ) {
    return false;
  }
  await refreshTextStats(sql);
  return true;
}

const STALE_EVENTS = 50;
