/** Events waiting for duplicate detection after their batch's commit (migration 022). */
import type { Sql } from "postgres";
import { type RedetectionRow, redetectionRowsOf } from "./duplicate-rules.ts";

/** Queues the events a batch inserted or changed; one already queued keeps its row. */
export async function queueForDetection(sql: Sql, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await sql`
    INSERT INTO duplicate_queue (event_id) SELECT unnest(${eventIds}::uuid[])
    ON CONFLICT (event_id) DO NOTHING`;
}

/**
 * Takes up to `limit` events off the queue, the longest queued first (migration 039), with what
 * detection reads of each, in the transaction that detects them (rolled back, they stay queued).
 * `taken` counts deleted events too, so that fewer than `limit` means the queue is empty.
 */
export async function takeQueued(
  tx: Sql,
  limit: number,
): Promise<{ taken: number; events: RedetectionRow[] }> {
  const rows = await tx<{ event_id: string }[]>`
    DELETE FROM duplicate_queue
    WHERE event_id IN (SELECT event_id FROM duplicate_queue ORDER BY queued LIMIT ${limit})
    RETURNING event_id`;
  const events = await redetectionRowsOf(tx, rows.map((r) => r.event_id));
  return { taken: rows.length, events };
}

/** Removes one event from the queue: its detection fails whatever the attempt (logged). */
export async function dropQueued(sql: Sql, eventId: string): Promise<void> {
  await sql`DELETE FROM duplicate_queue WHERE event_id = ${eventId}`;
}

/** How many events wait for detection (committed queue rows: those a detection took are gone). */
export async function countQueued(sql: Sql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM duplicate_queue`;
  return row.n;
}
