/**
 * Events waiting to be matched against the saved searches (migration 034): queued in the
 * transaction that detects their duplicates, taken by the transaction that matches them, under
 * a lock of its own so that two servers never match two listings of one event at once.
 */
import type { Sql } from "postgres";
import { underLock } from "./advisory-lock.ts";

const ALERT_MATCH_LOCK_ID = 4_711_035;

/** Queues detected events for matching; one queued already keeps its row. */
export async function queueForMatching(sql: Sql, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await sql`
    INSERT INTO alert_match_queue (event_id) SELECT unnest(${eventIds}::uuid[])
    ON CONFLICT (event_id) DO NOTHING`;
}

/** Runs `work` in a transaction of its own holding the matching lock (advisory-lock.ts). */
export function underMatchingLock<T>(sql: Sql, work: (tx: Sql) => Promise<T>): Promise<T> {
  return underLock(sql, ALERT_MATCH_LOCK_ID, "custom plans", work);
}

/** Under the matching lock: takes up to `limit` queued events off the queue; their ids. */
export async function takeForMatching(tx: Sql, limit: number): Promise<string[]> {
  const rows = await tx<{ event_id: string }[]>`
    DELETE FROM alert_match_queue
    WHERE event_id IN (SELECT event_id FROM alert_match_queue ORDER BY queued_at LIMIT ${limit})
    RETURNING event_id`;
  return rows.map((r) => r.event_id);
}
