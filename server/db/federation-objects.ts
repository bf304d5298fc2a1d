/**
 * What federation publishes: the events to look at again (filled by the triggers of migration
 * `federation`), the listing a duplicate group shows and whether it federates, the published
 * objects and each actor's activities (its outbox).
 */
import type { Sql } from "postgres";
import { keyFeedsAiSearch } from "./ai-search-rule.ts";

/** Turns the triggers that record changes for federation on or off. */
export async function setFederationSwitch(sql: Sql, enabled: boolean): Promise<void> {
  await sql`UPDATE federation_switch SET enabled = ${enabled}`;
}

/** The oldest rows waiting to be looked at: per event, in the order first queued, its rows' ids. */
export async function takePending(sql: Sql, limit: number): Promise<Map<string, string[]>> {
  const rows = await sql<{ id: string; event_id: string }[]>`
    SELECT id::text AS id, event_id::text AS event_id FROM federation_pending
    ORDER BY id LIMIT ${limit}`;
  const byEvent = Map.groupBy(rows, (r) => r.event_id);
  return new Map([...byEvent].map(([eventId, own]) => [eventId, own.map((r) => r.id)]));
}

/** Removes looked-at rows. */
export async function dropPending(sql: Sql, rowIds: string[]): Promise<void> {
  await sql`DELETE FROM federation_pending WHERE id = ANY(${rowIds}::bigint[])`;
}

/** Events waiting to be looked at. */
export async function countPending(sql: Sql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM federation_pending`;
  return row.n;
}

/** What readShownListing reads. */
export interface ShownListing {
  /** The live objects published for the group's listings, the oldest first. */
  live: { id: string; event_id: string; content_hash: string }[];
  shown: { id: string; federates: boolean; upcoming: boolean } | null;
}

/**
 * For an event (which may be gone): the live objects of its duplicate group's listings (its own
 * when in none), the listing the group shows (its canonical), and whether that one federates (the
 * AI-search rule on the key that last wrote it) and is still to come.
 */
export async function readShownListing(sql: Sql, eventId: string): Promise<ShownListing> {
  // One statement: the publisher reads this for every event a push changed.
  const [row] = await sql<ShownListing[]>`
    WITH g AS (SELECT group_id FROM event_group_members WHERE event_id = ${eventId}),
    members AS (
      SELECT m.event_id FROM event_group_members m WHERE m.group_id = (SELECT group_id FROM g)
      UNION SELECT ${eventId}::uuid
    )
    SELECT
      (SELECT coalesce(json_agg(json_build_object('id', o.id, 'event_id', o.event_id,
                'content_hash', o.content_hash) ORDER BY o.published_at, o.id), '[]')
       FROM federation_objects o
       WHERE o.event_id IN (SELECT event_id FROM members) AND o.deleted_at IS NULL) AS live,
      (SELECT json_build_object('id', e.id, 'federates', ${keyFeedsAiSearch(sql)},
                'upcoming', coalesce(e.ends_at, e.starts_at) >= now())
       FROM events e JOIN api_keys k ON k.id = e.last_key_id
       WHERE e.id = coalesce((SELECT group_id FROM g), ${eventId}::uuid)) AS shown`;
  return row;
}

/** A published object. */
export interface ObjectRecord {
  id: string;
  event_id: string;
  snapshot: unknown;
  content_hash: string;
  announced_by: string[];
  published_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/** One object, live or deleted. */
export async function getObject(sql: Sql, id: string): Promise<ObjectRecord | null> {
  const rows = await sql<ObjectRecord[]>`
    SELECT id::text AS id, event_id::text AS event_id, snapshot, content_hash, announced_by,
           published_at, updated_at, deleted_at
    FROM federation_objects WHERE id = ${id}::uuid`;
  return rows[0] ?? null;
}

/** Stores a new object; returns its id. */
export async function insertObject(
  sql: Sql,
  object: { eventId: string; snapshot: unknown; contentHash: string; announcedBy: string[] },
): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    INSERT INTO federation_objects (event_id, snapshot, content_hash, announced_by)
    VALUES (${object.eventId}, ${sql.json(object.snapshot as never)}, ${object.contentHash},
            ${object.announcedBy}::text[])
    RETURNING id::text AS id`;
  return row.id;
}

/** Points an object at the listing it shows now, with that listing's content. */
export async function updateObject(
  sql: Sql,
  object: { id: string; eventId: string; snapshot: unknown; contentHash: string },
): Promise<void> {
  await sql`
    UPDATE federation_objects
    SET event_id = ${object.eventId}, snapshot = ${sql.json(object.snapshot as never)},
        content_hash = ${object.contentHash}, updated_at = now()
    WHERE id = ${object.id}::uuid`;
}

/** Marks an object deleted (served as a Tombstone from then on). */
export async function tombstoneObject(sql: Sql, id: string): Promise<void> {
  await sql`UPDATE federation_objects SET deleted_at = now() WHERE id = ${id}::uuid`;
}

/** Records activities to send, in order. */
export async function addActivities(
  sql: Sql,
  activities: { actor: string; kind: string; objectId: string }[],
): Promise<void> {
  if (activities.length === 0) return;
  await sql`
    INSERT INTO federation_activities (actor_handle, kind, object_id)
    SELECT a, k, o::uuid
    FROM unnest(${activities.map((a) => a.actor)}::text[],
                ${activities.map((a) => a.kind)}::text[],
                ${activities.map((a) => a.objectId)}::text[]) WITH ORDINALITY AS t (a, k, o, n)
    ORDER BY n`;
}

/** An activity with its object. */
export interface ActivityRecord {
  id: string;
  seq: string;
  actor_handle: string;
  kind: "Create" | "Update" | "Delete" | "Announce";
  published: Date;
  object: ObjectRecord;
}

function toActivity(row: Record<string, unknown>): ActivityRecord {
  const { id, seq, actor_handle, kind, published, ...object } = row;
  return {
    id,
    seq,
    actor_handle,
    kind,
    published,
    object: { ...object, id: object.object_id } as unknown as ObjectRecord,
  } as ActivityRecord;
}

/** Activities not yet handed to the delivery queue, oldest first. */
export async function unsentActivities(sql: Sql, limit: number): Promise<ActivityRecord[]> {
  const rows = await sql`
    SELECT a.id::text AS id, a.seq::text AS seq, a.actor_handle, a.kind, a.published,
           o.id::text AS object_id, o.event_id::text AS event_id, o.snapshot, o.content_hash,
           o.announced_by, o.published_at, o.updated_at, o.deleted_at
    FROM federation_activities a JOIN federation_objects o ON o.id = a.object_id
    WHERE a.sent_at IS NULL ORDER BY a.seq LIMIT ${limit}`;
  return rows.map(toActivity);
}

/** Marks activities handed to the delivery queue. */
export async function markSent(sql: Sql, ids: string[]): Promise<void> {
  await sql`UPDATE federation_activities SET sent_at = now() WHERE id = ANY(${ids}::uuid[])`;
}

/** One activity by id. */
export async function getActivity(sql: Sql, id: string): Promise<ActivityRecord | null> {
  const rows = await sql`
    SELECT a.id::text AS id, a.seq::text AS seq, a.actor_handle, a.kind, a.published,
           o.id::text AS object_id, o.event_id::text AS event_id, o.snapshot, o.content_hash,
           o.announced_by, o.published_at, o.updated_at, o.deleted_at
    FROM federation_activities a JOIN federation_objects o ON o.id = a.object_id
    WHERE a.id = ${id}::uuid`;
  return rows.length === 0 ? null : toActivity(rows[0]);
}

/** A page of `actor`'s activities, newest first, older than `beforeSeq` when given. */
export async function listOutbox(
  sql: Sql,
  page: { actor: string; beforeSeq?: string; limit: number },
): Promise<ActivityRecord[]> {
  const rows = await sql`
    SELECT a.id::text AS id, a.seq::text AS seq, a.actor_handle, a.kind, a.published,
           o.id::text AS object_id, o.event_id::text AS event_id, o.snapshot, o.content_hash,
           o.announced_by, o.published_at, o.updated_at, o.deleted_at
    FROM federation_activities a JOIN federation_objects o ON o.id = a.object_id
    WHERE a.actor_handle = ${page.actor}
      AND (${page.beforeSeq ?? null}::bigint IS NULL OR a.seq < ${page.beforeSeq ?? null}::bigint)
    ORDER BY a.seq DESC LIMIT ${page.limit}`;
  return rows.map(toActivity);
}

/** How many activities `actor` has sent. */
export async function countOutbox(sql: Sql, actor: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM federation_activities WHERE actor_handle = ${actor}`;
  return row.n;
}
