/** Public reads of events: one by id, and the filtered, paginated list. */
import type { Fragment, Sql } from "postgres";
import type { StoredEvent } from "../../shared/api-schemas.ts";
import { inAiSearch } from "./ai-search-rule.ts";
import { type Attendance, attendanceCondition } from "./attendance.ts";
import { nearCondition, type NearFilter } from "./near-condition.ts";
import { soonestMatches } from "./soonest-matches.ts";
import { inStartOrder, notOver, notOverAt } from "./start-order.ts";
import { textQueryOf } from "./text-query.ts";

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
  /** With `q`: the text-match tier of the row (0: every word). */
  tier?: number;
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
    ${inAiSearch(sql)} AS in_ai_search`;
}

type EventRow = Omit<StoredEvent, "starts_at" | "ends_at" | "created_at" | "updated_at"> & {
  starts_at: Date;
  ends_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

/** Turns a selected row into the API's Event shape. */
export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    ...row,
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
  return sql`${notOver(sql, notOverAt(sql, f.from))} AND ${conditionsBesidesFrom(sql, f)}`;
}

/**
 * The filters' conditions except "not over at `from`" (server/db/start-order.ts), which readers
 * in start order split into the two sets that indexes find.
 */
export function conditionsBesidesFrom(sql: Sql, f: EventFilters): Fragment {
  const parts: Fragment[] = [sql`true`];
  if (f.to !== undefined) parts.push(sql`e.starts_at <= ${f.to}`);
  if (f.q !== undefined) {
    // Events in any tier of the query (server/db/text-query.ts). Computed once per statement:
    // a generic plan would otherwise evaluate the function for every row it reads.
    parts.push(sql`e.search_vector @@ (SELECT event_text_match(${f.q}))`);
  }
  if (f.city !== undefined) parts.push(sql`lower(e.city) = lower(${f.city})`);
  if (f.country !== undefined) parts.push(sql`lower(e.country) = lower(${f.country})`);
  if (f.platform !== undefined) parts.push(sql`e.platform = ${f.platform}`);
  if (f.external_id !== undefined) parts.push(sql`e.external_id = ${f.external_id}`);
  if (f.is_virtual !== undefined) parts.push(sql`e.is_virtual = ${f.is_virtual}`);
  if (f.is_free !== undefined) parts.push(sql`e.is_free = ${f.is_free}`);
  if (f.topic !== undefined) {
    // As event_labels_lower's GIN index sees it (migration 008).
    parts.push(sql`event_labels_lower(e.topics) @> ARRAY[lower(${f.topic}::text)]`);
  }
  if (f.near !== undefined) parts.push(nearCondition(sql, f.near));
  if (f.attendance !== undefined) parts.push(attendanceCondition(sql, f.attendance));
  return parts.length === 1
    ? parts[0]
    : parts.slice(1).reduce((acc, part) => sql`${acc} AND ${part}`);
}

/**
 * A page of events, soonest first. With `q`: events matching every word of it first, then those
 * matching most of its words (server/db/text-query.ts), soonest first within each tier.
 * Keyset pagination: the cursor is the sort key of the previous page's last row.
 */
export async function listEvents(
  sql: Sql,
  filters: EventFilters,
  page: { limit: number; after?: ListCursor },
): Promise<{ events: StoredEvent[]; next: ListCursor | null }> {
  const { q, ...rest } = filters;
  const text = q === undefined ? null : await textQueryOf(sql, q);
  if (q !== undefined && text === null) return { events: [], next: null };
  const tiers = text?.tiers ?? [null];
  const shown: { row: EventRow; tier: number }[] = [];
  let more = false;
  for (let tier = Math.min(page.after?.tier ?? 0, tiers.length); tier < tiers.length; tier++) {
    // Once the page is full, one more row (from this tier or a later one) says there is more.
    const wanted = page.limit - shown.length;
    const rows = await listTier(sql, rest, {
      match: tiers[tier],
      limit: wanted + 1,
      after: tier === (page.after?.tier ?? 0) ? page.after : undefined,
    });
    shown.push(...rows.slice(0, wanted).map((row) => ({ row, tier })));
    if (rows.length > wanted) {
      more = true;
      break;
    }
  }
  const last = shown.at(-1);
  return {
    events: shown.map(({ row }) => toStoredEvent(row)),
    next: more && last
      ? {
        ...(text ? { tier: last.tier } : {}),
        starts_at: last.row.starts_at.toISOString(),
        id: last.row.id,
      }
      : null,
  };
}

/** Events of one text-match tier (or all events) after the cursor, soonest first. */
async function listTier(
  sql: Sql,
  filters: Omit<EventFilters, "q">,
  o: { match: string | null; limit: number; after?: ListCursor },
): Promise<EventRow[]> {
  if (o.match !== null) {
    const ids = await soonestMatches(sql, { ...o, match: o.match, filters, count: o.limit });
    return await eventRowsInOrder(sql, ids.map((m) => m.id));
  }
  const page = inStartOrder(sql, {
    at: notOverAt(sql, filters.from),
    conditions: sql`${conditionsBesidesFrom(sql, filters)} ${afterPosition(sql, o.after)}`,
    limit: o.limit,
  });
  // Sort keys first, whole events only for the page.
  return await sql<EventRow[]>`
    SELECT ${eventColumns(sql)}
    FROM ${page} p
    JOIN events e ON e.id = p.id
    JOIN api_keys k ON k.id = e.last_key_id
    ORDER BY e.starts_at, e.id`;
}

/** On `e`: the event comes after `after` in start order (no condition without it). */
export function afterPosition(
  sql: Sql,
  after: { starts_at: string; id: string } | undefined,
): Fragment {
  return after
    ? sql`AND (e.starts_at, e.id) > (${after.starts_at}::timestamptz, ${after.id}::uuid)`
    : sql``;
}

/** The events with these ids, in the order given (an event deleted meanwhile is left out). */
async function eventRowsInOrder(sql: Sql, ids: string[]): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  const rows = await sql<EventRow[]>`
    SELECT ${eventColumns(sql)} FROM events e JOIN api_keys k ON k.id = e.last_key_id
    WHERE e.id = ANY(${ids}::uuid[])`;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
