/** Public reads of events: one by id, and the filtered, paginated list. */
import type { Fragment, Sql } from "postgres";
import type { StoredEvent } from "../../shared/api-schemas.ts";
import { inAiSearch } from "./ai-search-rule.ts";
import { cfpStatus, lentCfp } from "./cfp-rule.ts";
import {
  afterPosition,
  canonicalMeets,
  conditionsBesidesFrom,
  type EventFilters,
  filterConditions,
} from "./event-filters.ts";
import { deadlinePositionOf, inDeadlineOrder } from "./deadline-order.ts";
import { estimatedHiddenShare } from "./filter-estimate.ts";
import { soonestMatches, type StartPosition } from "./soonest-matches.ts";
import { inStartOrder, notOverAt } from "./start-order.ts";
import { textQueryOf } from "./text-query.ts";

/** Position after the last row of a page: the sort key of that row. */
export interface ListCursor {
  /** With `q`: the text-match tier of the row (0: every word). */
  tier?: number;
  starts_at: string;
  id: string;
  /** In deadline order (`sort=cfp_closes_at`): the row's deadline, "infinity" for none. */
  cfp_closes_at?: string;
}

/** The orders a listing can take: start time (the default) or CFP deadline. */
export const LIST_ORDERS = ["starts_at", "cfp_closes_at"] as const;
export type ListOrder = typeof LIST_ORDERS[number];

/**
 * The selected columns of a stored event, from `events e` joined to its last key `k`. With
 * `lendCfp` (listings and search), an event without a CFP shows its group's (cfp_from says whose);
 * with `hiddenWhen`, `grouped.hidden` says whether it hides behind its group's canonical listing
 * under those filters (shownCollapsed).
 */
export function eventColumns(
  sql: Sql,
  options: { lendCfp?: boolean; hiddenWhen?: Omit<EventFilters, "q"> } = {},
): Fragment {
  return sql`
    e.id, e.external_id, e.platform, e.source_url, e.title, e.description, e.starts_at,
    e.ends_at, e.timezone, e.venue_name, e.city, e.country, e.latitude, e.longitude,
    e.is_virtual, e.is_hybrid, e.is_free, e.price_min, e.price_max, e.currency, e.is_sold_out,
    e.event_type, e.categories, e.tags, e.topics, e.organiser_name, e.organiser_url,
    e.cover_image_url, e.attendee_count, e.capacity, e.cfp_url, e.cfp_opens_at, e.cfp_closes_at,
    ${cfpStatus(sql, sql`now()`)} AS cfp_status, e.created_at, e.updated_at,
    ${inAiSearch(sql)} AS in_ai_search, ${groupOf(sql, options)} AS grouped`;
}

/**
 * On `e`: what its duplicate group adds to it, as JSON (GroupFacts), null when it is in none.
 * One lookup of its membership serves all three facts: most events are in no group, and for them
 * that lookup in a unique index is the whole cost, with or without lending and collapse.
 */
function groupOf(
  sql: Sql,
  o: { lendCfp?: boolean; hiddenWhen?: Omit<EventFilters, "q"> },
): Fragment {
  const hidden = o.hiddenWhen
    ? sql`NOT m.canonical AND ${
      canonicalMeets(sql, o.hiddenWhen, { group: sql`m.group_id`, member: sql`m.event_id` })
    }`
    : sql`false`;
  return sql`(
    SELECT json_build_object(
      'duplicates', coalesce((
        SELECT json_agg(json_build_object('id', o.id, 'platform', o.platform,
                                          'source_url', o.source_url, 'title', o.title)
                        ORDER BY om.canonical DESC, o.created_at, o.id)
        FROM event_group_members om JOIN events o ON o.id = om.event_id
        WHERE om.group_id = m.group_id AND om.event_id <> m.event_id), '[]'::json),
      'cfp_lent', ${o.lendCfp ? lentCfp(sql, sql`m.group_id`) : sql`NULL::json`},
      'hidden', ${hidden})
    FROM event_group_members m WHERE m.event_id = e.id)`;
}

/** What an event's duplicate group adds to it (groupOf). */
interface GroupFacts {
  /** The group's other listings. */
  duplicates: StoredEvent["duplicates"];
  /** A group member's CFP shown on a listing without one (see lentCfp). */
  cfp_lent: LentCfp | null;
  /** Hidden behind the group's canonical listing (only asked with `hiddenWhen`). */
  hidden: boolean;
}

type EventRow =
  & Omit<
    StoredEvent,
    | "starts_at"
    | "ends_at"
    | "cfp_opens_at"
    | "cfp_closes_at"
    | "created_at"
    | "updated_at"
    | "cfp_from"
    | "duplicates"
  >
  & {
    starts_at: Date;
    ends_at: Date | null;
    cfp_opens_at: Date | null;
    cfp_closes_at: Date | null;
    created_at: Date;
    updated_at: Date;
    grouped: GroupFacts | null;
  };

/** The CFP of another listing of the group, as lentCfp reads it. */
interface LentCfp {
  id: string;
  platform: StoredEvent["platform"];
  cfp_url: string;
  cfp_opens_at: string | null;
  cfp_closes_at: string | null;
  cfp_status: StoredEvent["cfp_status"];
}

/** Turns a selected row into the API's Event shape. */
export function toStoredEvent({ grouped, ...row }: EventRow): StoredEvent {
  const event: StoredEvent = {
    ...row,
    starts_at: row.starts_at.toISOString(),
    ends_at: row.ends_at?.toISOString() ?? null,
    cfp_opens_at: row.cfp_opens_at?.toISOString() ?? null,
    cfp_closes_at: row.cfp_closes_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    duplicates: grouped?.duplicates ?? [],
    cfp_from: null,
  };
  const lent = grouped?.cfp_lent;
  if (!lent) return event;
  const instant = (v: string | null) => (v === null ? null : new Date(v).toISOString());
  return {
    ...event,
    cfp_url: lent.cfp_url,
    cfp_opens_at: instant(lent.cfp_opens_at),
    cfp_closes_at: instant(lent.cfp_closes_at),
    cfp_status: lent.cfp_status,
    cfp_from: { id: lent.id, platform: lent.platform },
  };
}

/** One event, or null. */
export async function getEventById(sql: Sql, id: string): Promise<StoredEvent | null> {
  const [row] = await sql<EventRow[]>`
    SELECT ${eventColumns(sql)} FROM events e JOIN api_keys k ON k.id = e.last_key_id
    WHERE e.id = ${id}`;
  return row ? toStoredEvent(row) : null;
}

/**
 * Events with the given ids, in no particular order; as listings show them (lending a group's
 * CFP, see eventColumns) unless `lendCfp` is false.
 */
export async function getEventsByIds(
  sql: Sql,
  ids: string[],
  options: { lendCfp?: boolean } = {},
): Promise<StoredEvent[]> {
  const rows = await sql<EventRow[]>`
    SELECT ${
    eventColumns(sql, { lendCfp: options.lendCfp !== false })
  } FROM events e JOIN api_keys k ON k.id = e.last_key_id
    WHERE e.id = ANY(${ids}::uuid[])`;
  return rows.map(toStoredEvent);
}

/**
 * A page of events, soonest first. With `q`: events matching every word of it first, then those
 * matching most of its words (server/db/text-query.ts), soonest first within each tier.
 * Keyset pagination: the cursor is the sort key of the previous page's last row.
 */
export async function listEvents(
  sql: Sql,
  filters: EventFilters,
  page: { limit: number; after?: ListCursor; sort?: ListOrder },
): Promise<{ events: StoredEvent[]; next: ListCursor | null }> {
  if (page.sort === "cfp_closes_at") return await listByDeadline(sql, filters, page);
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

/**
 * A page of events with a CFP, soonest deadline first (server/db/deadline-order.ts). Words filter
 * (any tier of `q`) without ranking: the deadline is the order.
 */
async function listByDeadline(
  sql: Sql,
  filters: EventFilters,
  page: { limit: number; after?: ListCursor },
): Promise<{ events: StoredEvent[]; next: ListCursor | null }> {
  const after = page.after?.cfp_closes_at === undefined
    ? undefined
    : { cfp_closes_at: page.after.cfp_closes_at, id: page.after.id };
  const order = inDeadlineOrder(sql, {
    conditions: filterConditions(sql, { ...filters, cfp_lent: false }),
    limit: page.limit + 1,
    after,
  });
  const rows = await sql<EventRow[]>`
    SELECT ${eventColumns(sql)}
    FROM ${order} p
    JOIN events e ON e.id = p.id
    JOIN api_keys k ON k.id = e.last_key_id
    ORDER BY p.deadline, p.id`;
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    events: shown.map(toStoredEvent),
    next: rows.length > page.limit && last
      ? { starts_at: last.starts_at.toISOString(), ...deadlinePositionOf(last) }
      : null,
  };
}

/** Events of one text-match tier (or all events) after the cursor, soonest first. */
async function listTier(
  sql: Sql,
  filters: Omit<EventFilters, "q">,
  o: { match: string | null; limit: number; after?: ListCursor },
): Promise<EventRow[]> {
  if (o.match !== null) return await shownMatches(sql, filters, { ...o, match: o.match });
  const page = inStartOrder(sql, {
    at: notOverAt(sql, filters.from),
    conditions: sql`${conditionsBesidesFrom(sql, filters)} ${afterPosition(sql, o.after)}`,
    limit: o.limit,
  });
  // Sort keys first, whole events only for the page.
  return await sql<EventRow[]>`
    SELECT ${eventColumns(sql, { lendCfp: filters.collapse !== false })}
    FROM ${page} p
    JOIN events e ON e.id = p.id
    JOIN api_keys k ON k.id = e.last_key_id
    ORDER BY e.starts_at, e.id`;
}

/**
 * The soonest `limit` events of one text-match tier after `after` that show (EventFilters
 * .collapse). The tier's matches are found as with collapse=false and whole events fetched for as
 * many as the page needs and room for the hidden ones it is likely to meet, the same statement
 * saying which of them are hidden; only when more are does it ask for more, after the last one
 * fetched. So collapse costs no statement of its own and probes only the events fetched: asked of
 * every match in the walk or the index, it cost the listing 24% at p50 and 91% at p95 at 100,000
 * events with no group at all (docs/decisions.md).
 */
async function shownMatches(
  sql: Sql,
  filters: Omit<EventFilters, "q">,
  o: { match: string; limit: number; after?: ListCursor },
): Promise<EventRow[]> {
  const collapse = filters.collapse !== false;
  const hiddenWhen = collapse ? { ...filters, collapseMatch: o.match } : undefined;
  const shown: EventRow[] = [];
  let after: StartPosition | undefined = o.after;
  // Room for the hidden events the first fetch is likely to meet (three times as many as the
  // share of hidden listings says: a second round is a walk and a fetch more).
  const room = collapse ? Math.ceil(o.limit * 3 * await estimatedHiddenShare(sql)) : 0;
  for (let count = o.limit + room; shown.length < o.limit;) {
    const found = await soonestMatches(sql, { match: o.match, filters, count, after });
    const rows = await eventRowsInOrder(sql, found.map((m) => m.id), {
      lendCfp: collapse,
      hiddenWhen,
    });
    for (const row of rows) if (!row.grouped?.hidden && shown.length < o.limit) shown.push(row);
    // Fewer than asked for: the tier has no more.
    if (found.length < count) break;
    const last = found.at(-1)!;
    after = { starts_at: last.starts_at.toISOString(), id: last.id };
    // As text ranking does (shownFirst): room for more hidden ones among the next.
    count = (o.limit - shown.length) * 2 + 8;
  }
  return shown;
}

/**
 * The events with these ids, in the order given (an event deleted meanwhile is left out). With
 * `hiddenWhen`, `grouped.hidden` says whether each is hidden behind its group's canonical listing
 * under those filters (shownCollapsed).
 */
async function eventRowsInOrder(
  sql: Sql,
  ids: string[],
  o: { lendCfp: boolean; hiddenWhen?: Omit<EventFilters, "q"> },
): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  const rows = await sql<EventRow[]>`
    SELECT ${eventColumns(sql, o)}
    FROM events e JOIN api_keys k ON k.id = e.last_key_id
    WHERE e.id = ANY(${ids}::uuid[])`;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
