/** What a contributor's dashboard shows: their keys with event counts, their latest events. */
import type { Sql } from "postgres";
import type { StoredEvent } from "../../shared/api-schemas.ts";
import { type ApiKeyRecord, listApiKeys } from "./api-keys.ts";
import { eventColumns, toStoredEvent } from "./event-reads.ts";

/** A key with the number of events it last wrote. */
export type KeyWithEvents = ApiKeyRecord & { events: number };

/** The contributor's keys, newest first, each with its events count. */
export async function keysOfContributor(
  sql: Sql,
  contributorId: string,
): Promise<KeyWithEvents[]> {
  const keys = await listApiKeys(sql, { contributorId });
  if (keys.length === 0) return [];
  const counts = await sql<{ key_id: string; events: number }[]>`
    SELECT last_key_id AS key_id, count(*)::int AS events FROM events
    WHERE last_key_id = ANY(${keys.map((k) => k.id)}::uuid[])
    GROUP BY last_key_id`;
  const byKey = new Map(counts.map((c) => [c.key_id, c.events]));
  return keys.map((key) => ({ ...key, events: byKey.get(key.id) ?? 0 }));
}

/** The contributor's most recently changed events, past ones too, and how many they have. */
export async function recentEventsOfContributor(
  sql: Sql,
  contributorId: string,
  limit: number,
): Promise<{ events: StoredEvent[]; total: number }> {
  // deno-lint-ignore no-explicit-any
  const rows = await sql<any[]>`
    SELECT ${eventColumns(sql)} FROM events e JOIN api_keys k ON k.id = e.last_key_id
    WHERE e.contributor_id = ${contributorId}
    ORDER BY e.updated_at DESC, e.id
    LIMIT ${limit}`;
  const [{ total }] = await sql<{ total: number }[]>`
    SELECT count(*)::int AS total FROM events WHERE contributor_id = ${contributorId}`;
  return { events: rows.map(toStoredEvent), total };
}

/** The event if it belongs to the contributor; null for another's event or none. */
export async function eventOfContributor(
  sql: Sql,
  options: { eventId: string; contributorId: string },
): Promise<StoredEvent | null> {
  // deno-lint-ignore no-explicit-any
  const [row] = await sql<any[]>`
    SELECT ${eventColumns(sql)} FROM events e JOIN api_keys k ON k.id = e.last_key_id
    WHERE e.id = ${options.eventId} AND e.contributor_id = ${options.contributorId}`;
  return row ? toStoredEvent(row) : null;
}
