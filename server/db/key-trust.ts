/** Operator decisions on a key: trust, untrust, rate limit; and the key's first batch. */
import type { Sql } from "postgres";
import type { StoredEvent } from "../../shared/api-schemas.ts";
import { getEventsByIds } from "./event-reads.ts";

/**
 * Marks a key trusted or not, recording who decided and when. Returns false when no key has the
 * id. The key's events follow at once: AI search reads trust from the key on every query.
 */
export async function setKeyTrust(
  sql: Sql,
  keyId: string,
  trusted: boolean,
  decidedBy: string,
): Promise<boolean> {
  const rows = await sql`
    UPDATE api_keys SET trusted = ${trusted}, reviewed_at = now(), reviewed_by = ${decidedBy}
    WHERE id = ${keyId}
    RETURNING id`;
  return rows.length > 0;
}

/** Sets a key's requests-per-minute limit; it applies from the key's next request. */
export async function setKeyRateLimit(
  sql: Sql,
  keyId: string,
  perMinute: number,
): Promise<boolean> {
  const rows = await sql`
    UPDATE api_keys SET rate_limit_per_minute = ${perMinute} WHERE id = ${keyId} RETURNING id`;
  return rows.length > 0;
}

/** The first batch a key had accepted, its events as they are now, or null if none yet. */
export async function firstBatchOf(
  sql: Sql,
  keyId: string,
): Promise<{ received_at: string; events: StoredEvent[] } | null> {
  const [row] = await sql<{ received_at: Date | null; event_ids: string[] | null }[]>`
    SELECT first_batch_at AS received_at, first_batch_event_ids AS event_ids
    FROM api_keys WHERE id = ${keyId}`;
  if (!row?.received_at) return null;
  const ids = row.event_ids ?? [];
  const byId = new Map((await getEventsByIds(sql, ids)).map((e) => [e.id, e]));
  return {
    received_at: row.received_at.toISOString(),
    // In the order the batch held them.
    events: ids.flatMap((id) => byId.get(id) ?? []),
  };
}
