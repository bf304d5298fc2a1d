/**
 * Fedify's message queue as rows of `federation_queue` (server/federation/message-queue.ts). A
 * taken message is leased, not deleted: one whose worker died is taken again once its lease ends.
 */
import type { Sql } from "postgres";

/** A message taken from the queue. */
export interface QueuedMessage {
  id: string;
  message: unknown;
  ordering_key: string | null;
}

/** Queues messages, each deliverable after `delayMs`. */
export async function enqueueMessages(
  sql: Sql,
  batch: { messages: readonly unknown[]; delayMs: number; orderingKey?: string },
): Promise<void> {
  if (batch.messages.length === 0) return;
  const texts = batch.messages.map((m) => JSON.stringify(m));
  await sql`
    INSERT INTO federation_queue (message, ordering_key, deliver_at)
    SELECT m::jsonb, ${batch.orderingKey ?? null},
           now() + ${batch.delayMs}::float8 * interval '1 millisecond'
    FROM unnest(${texts}::text[]) WITH ORDINALITY AS t (m, n) ORDER BY n`;
}

/**
 * Takes up to `limit` due messages for `leaseMs`: the oldest first, and at most one per ordering
 * key, none whose key has an older message due or leased (so one key's messages go in order).
 */
export async function takeMessages(
  sql: Sql,
  options: { limit: number; leaseMs: number },
): Promise<QueuedMessage[]> {
  return await sql<QueuedMessage[]>`
    WITH due AS (
      SELECT q.id FROM federation_queue q
      WHERE q.deliver_at <= now() AND (q.locked_until IS NULL OR q.locked_until <= now())
        AND (q.ordering_key IS NULL OR NOT EXISTS (
          SELECT 1 FROM federation_queue o
          WHERE o.ordering_key = q.ordering_key AND o.id < q.id
            AND (o.deliver_at <= now() OR o.locked_until > now())))
      ORDER BY q.id LIMIT ${options.limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE federation_queue q
    SET locked_until = now() + ${options.leaseMs}::float8 * interval '1 millisecond'
    FROM due WHERE q.id = due.id
    RETURNING q.id::text AS id, q.message, q.ordering_key`;
}

/** Removes a handled message. */
export async function finishMessage(sql: Sql, id: string): Promise<void> {
  await sql`DELETE FROM federation_queue WHERE id = ${id}::bigint`;
}

/** Messages waiting: all, and those due now. */
export async function countQueued(sql: Sql): Promise<{ queued: number; ready: number }> {
  const [row] = await sql<{ queued: number; ready: number }[]>`
    SELECT count(*)::int AS queued,
           count(*) FILTER (WHERE deliver_at <= now())::int AS ready
    FROM federation_queue WHERE locked_until IS NULL OR locked_until <= now()`;
  return row;
}

/** The earliest time a message becomes due (null: none waits). */
export async function nextDue(sql: Sql): Promise<Date | null> {
  const [row] = await sql<{ at: Date | null }[]>`
    SELECT min(greatest(deliver_at, coalesce(locked_until, deliver_at))) AS at
    FROM federation_queue`;
  return row.at;
}
