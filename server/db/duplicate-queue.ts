/** Events waiting for duplicate detection after their batch's commit (migration 022). */
import type { Sql } from "postgres";
import { type RedetectionRow, redetectionRowsOf } from "./duplicate-rules.ts";

/** A queued event as detection reads it, and whether it was new when queued. */
export interface QueuedEvent extends RedetectionRow {
  inserted: boolean;
}

/** Queues the events a batch inserted or changed; one already queued keeps its row. */
export async function queueForDetection(
  sql: Sql,
  events: { id: string; inserted: boolean }[],
): Promise<void> {
  if (events.length === 0) return;
  // An array literal: postgres.js sends an array of booleans as one boolean.
  const inserted = `{${events.map((e) => e.inserted).join(",")}}`;
  await sql`
    INSERT INTO duplicate_queue (event_id, inserted)
    SELECT * FROM unnest(${events.map((e) => e.id)}::uuid[], ${inserted}::bool[])
    ON CONFLICT (event_id) DO NOTHING`;
}

/**
 * Takes up to `limit` queued events off the queue, with what detection reads of each (an event
 * deleted meanwhile is dropped). Run under the duplicates lock, in the transaction that detects
 * them: rolled back, they stay queued. `taken` counts the rows removed, deleted events' included,
 * so that fewer than `limit` means the queue is empty.
 */
export async function takeQueued(
  tx: Sql,
  limit: number,
): Promise<{ taken: number; events: QueuedEvent[] }> {
  // New when queued, an event may since have been detected another way (its vector, new rules):
  // then it has keys, and is detected as a changed one.
  const rows = await tx<{ event_id: string; inserted: boolean }[]>`
    DELETE FROM duplicate_queue q
    WHERE event_id IN (SELECT event_id FROM duplicate_queue LIMIT ${limit})
    RETURNING event_id,
      inserted AND NOT EXISTS (SELECT FROM event_key_sets s WHERE s.event_id = q.event_id)
        AS inserted`;
  const inserted = new Map(rows.map((r) => [r.event_id, r.inserted]));
  const events = await redetectionRowsOf(tx, [...inserted.keys()]);
  return {
    taken: rows.length,
    events: events.map((e) => ({ ...e, inserted: inserted.get(e.id)! })),
  };
}

/** Removes one event from the queue: its detection fails whatever the attempt (logged). */
export async function dropQueued(sql: Sql, eventId: string): Promise<void> {
  await sql`DELETE FROM duplicate_queue WHERE event_id = ${eventId}`;
}
