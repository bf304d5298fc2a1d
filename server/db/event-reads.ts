/** Public reads of events: one by id, and the filtered, paginated list. */
import type { Fragment, Sql } from "postgres";
import type { StoredEvent } from "../../shared/api-schemas.ts";
import { type Attendance, attendanceCondition } from "./attendance.ts";
import { nearCondition, type NearFilter } from "./near-condition.ts";

/** Filters of the list and search endpoints, already validated. */
export interface EventFilters {
  q?: string;
  city?: string;
  country?: string;
  from?: Date;
  /** Events starting at or before this instant. */
  to?: Date;
  platform?: string;
  external_id?: string;
  is_virtual?: boolean;
  is_free?: boolean;
  topic?: string;
  /** Events with coordinates within a great-circle radius of a point. */
  near?: NearFilter;
  /** How one can attend: online, in person (both include hybrid events), or hybrid. */
  attendance?: Attendance;
}

/** Position after the last row of a page: the sort key of that row. */
export interface ListCursor {
  rank?: number;
  starts_at: string;
  id: string;
}

/** The selected columns of a stored event, from `events e` joined to its last key `k`. */
export function eventColumns(sql: Sql): Fragment {
  return sql`
    e.id, e.external_id, e.platform, e.source_url, e.title, e.description, e.starts_at,
    e.ends_at, e.timezone, e.venue_name, e.city, e.country, e.latitude, e.longitude,
    e.is_virtual, e.is_hybrid, e.is_free, e.price_min, e.price_max, e.currency, e.is_sold_out,
    e.event_type, e.categories, e.tags, e.topics, e.organiser_name, e.organiser_url,
    e.cover_image_url, e.attendee_count, e.capacity, e.created_at, e.updated_at,
    (k.trusted AND k.revoked_at IS NULL AND EXISTS (
      -- In AI search exactly when semantic search can find it: see server/db/event-search.ts.
      SELECT 1 FROM event_embeddings v JOIN embedding_model m ON m.model = v.model
      WHERE v.event_id = e.id AND v.content_hash = e.content_hash
    )) AS in_ai_search`;
}

type EventRow = Omit<StoredEvent, "starts_at" | "ends_at" | "created_at" | "updated_at"> & {
  starts_at: Date;
  ends_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

/** Turns a selected row into the API's Event shape. */
export function toStoredEvent(row: EventRow): StoredEvent {
  const { rank: _rank, ...rest } = row as EventRow & { rank?: number };
  return {
    ...rest,
    starts_at: row.starts_at.toISOString(),
    ends_at: row.ends_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** One event, or null. */
export async function getEventById(sql: Sql, id: string): Promise<StoredEvent | null> {
  const [row] = await sql<EventRow[]>`
    SELECT ${eventColumns(sql)} FROM events e JOIN api_keys k ON k.id = e.last_key_id
    WHERE e.id = ${id}`;
  return row ? toStoredEvent(row) : null;
}

/** Events with the given ids, in no particular order. */
export async function getEventsByIds(sql: Sql, ids: string[]): Promise<StoredEvent[]> {
  const rows = await sql<EventRow[]>`
    SELECT ${eventColumns(sql)} FROM events e JOIN api_keys k ON k.id = e.last_key_id
    WHERE e.id = ANY(${ids}::uuid[])`;
  return rows.map(toStoredEvent);
}

/** The WHERE conditions shared by listing and searching. */
export function filterConditions(sql: Sql, f: EventFilters): Fragment {
  const parts: Fragment[] = [
    f.from === undefined
      ? sql`coalesce(e.ends_at, e.starts_at) >= now()`
      : sql`coalesce(e.ends_at, e.starts_at) >= ${f.from}`,
  ];
  if (f.to !== undefined) parts.push(sql`e.starts_at <= ${f.to}`);
  if (f.q !== undefined) {
    parts.push(sql`e.search_vector @@ websearch_to_tsquery('english', ${f.q})`);
  }
  if (f.city !== undefined) parts.push(sql`lower(e.city) = lower(${f.city})`);
  if (f.country !== undefined) parts.push(sql`lower(e.country) = lower(${f.country})`);
  if (f.platform !== undefined) parts.push(sql`e.platform = ${f.platform}`);
  if (f.external_id !== undefined) parts.push(sql`e.external_id = ${f.external_id}`);
  if (f.is_virtual !== undefined) parts.push(sql`e.is_virtual = ${f.is_virtual}`);
  if (f.is_free !== undefined) parts.push(sql`e.is_free = ${f.is_free}`);
  if (f.topic !== undefined) {
    parts.push(sql`EXISTS (SELECT 1 FROM unnest(e.topics) t WHERE lower(t) = lower(${f.topic}))`);
  }
  if (f.near !== undefined) parts.push(nearCondition(sql, f.near));
  if (f.attendance !== undefined) parts.push(attendanceCondition(sql, f.attendance));
  return parts.reduce((acc, part) => sql`${acc} AND ${part}`);
}

/**
 * A page of events. Without `q`: soonest first. With `q`: best text match first, then soonest.
 * Keyset pagination: the cursor is the sort key of the previous page's last row.
 */
export async function listEvents(
  sql: Sql,
  filters: EventFilters,
  page: { limit: number; after?: ListCursor },
): Promise<{ events: StoredEvent[]; next: ListCursor | null }> {
  const after = page.after;
  const ranked = filters.q !== undefined;
  const rank = ranked
    ? sql`ts_rank_cd(e.search_vector, websearch_to_tsquery('english', ${filters.q!}))`
    : sql`NULL::real`;
  let afterCondition = sql``;
  if (after && ranked && after.rank !== undefined) {
    afterCondition = sql`AND (rank < ${after.rank}::real OR (rank = ${after.rank}::real
      AND (starts_at, id) > (${after.starts_at}::timestamptz, ${after.id}::uuid)))`;
  } else if (after) {
    afterCondition =
      sql`AND (starts_at, id) > (${after.starts_at}::timestamptz, ${after.id}::uuid)`;
  }
  // Sort keys first, whole events only for the page: ranking a common word must not build (and
  // sort) a full event for every match.
  const rows = await sql<(EventRow & { rank: number | null })[]>`
    WITH page AS (
      SELECT * FROM (
        SELECT e.id, e.starts_at, ${rank} AS rank
        FROM events e
        WHERE ${filterConditions(sql, filters)}
      ) keys
      WHERE true ${afterCondition}
      ORDER BY ${ranked ? sql`rank DESC,` : sql``} starts_at, id
      LIMIT ${page.limit + 1}
    )
    SELECT ${eventColumns(sql)}, p.rank
    FROM page p
    JOIN events e ON e.id = p.id
    JOIN api_keys k ON k.id = e.last_key_id
    ORDER BY ${ranked ? sql`p.rank DESC,` : sql``} e.starts_at, e.id`;
  const more = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    events: shown.map(toStoredEvent),
    next: more && last
      ? {
        ...(ranked ? { rank: last.rank ?? 0 } : {}),
        starts_at: last.starts_at.toISOString(),
        id: last.id,
      }
      : null,
  };
}
