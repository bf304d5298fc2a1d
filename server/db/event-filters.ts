/**
 * The filters of the list and search endpoints as SQL conditions on `events e`: one home for
 * what each filter means, shared by listing, ranking, counting and facets.
 */
import type { Fragment, Sql } from "postgres";
import { type Attendance, attendanceCondition } from "./attendance.ts";
import { nearCondition, type NearFilter } from "./near-condition.ts";
import { notOver, notOverAt } from "./start-order.ts";
import { cfpClosesAfter, cfpClosesBefore, cfpOpenAt, cfpOwnOrLent } from "./cfp-rule.ts";

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
  /**
   * One entry per group of duplicate listings, its canonical event when that one meets the
   * filters too (the default: absent means true); false lists every listing.
   */
  collapse?: boolean;
  /**
   * The tsquery a text reader tests each event against itself (a tier of `q`, rare words): a
   * group's canonical listing hides a member only when it matches it too, so a word only a
   * hidden member holds still finds the group.
   */
  collapseMatch?: string;
  /**
   * The ranked words (lexemes) of a text search: a group's canonical listing hides a member only
   * when it holds every one of them the member holds, so a word only a hidden member holds still
   * finds the group, and a member holding more of the words than its canonical one shows.
   */
  collapseLexemes?: string[];
  /** Events with a call for papers (`any`), or one open at the moment of the request (`open`). */
  cfp?: "open" | "any";
  /** Events whose CFP closes strictly before this instant. */
  cfp_closes_before?: Date;
  /** Events whose CFP closes strictly after this instant. */
  cfp_closes_after?: Date;
  /**
   * Whether `cfp` also keeps an event without a CFP of its own whose group (duplicates) has one
   * (absent means true). The deadline order sets it false: there each CFP stands for itself.
   */
  cfp_lent?: boolean;
  /** Events created or changed at or after this instant ("what is new since"). */
  updated_since?: Date;
}

/** Whether the filters keep every event (collapsing duplicate groups aside). */
export function keepsEveryEvent(filters: Omit<EventFilters, "q">): boolean {
  const { collapse: _, ...rest } = filters;
  return Object.values(rest).every((v) => v === undefined);
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
  // However the place is spelt ("New York, NY" and "NYC"; "USA" and "U.S.A."): migration 041.
  if (f.city !== undefined) parts.push(sql`e.city_key = event_city_key(${f.city}::text)`);
  if (f.country !== undefined) {
    parts.push(sql`e.country_key = event_country_key(${f.country}::text)`);
  }
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
  parts.push(...cfpConditions(sql, f));
  if (f.updated_since !== undefined) parts.push(sql`e.updated_at >= ${f.updated_since}`);
  if (f.collapse !== false) parts.push(shownCollapsed(sql, f));
  return parts.length === 1
    ? parts[0]
    : parts.slice(1).reduce((acc, part) => sql`${acc} AND ${part}`);
}

/** The call-for-papers filters' conditions (server/db/cfp-rule.ts says what open means). */
function cfpConditions(sql: Sql, f: EventFilters): Fragment[] {
  const parts: Fragment[] = [];
  const lent = f.cfp_lent !== false;
  if (f.cfp !== undefined) {
    const own = f.cfp === "open" ? cfpOpenAt(sql, sql`now()`) : sql`e.cfp_url IS NOT NULL`;
    parts.push(lent ? cfpOwnOrLent(sql, own) : own);
  }
  if (f.cfp_closes_before !== undefined) {
    parts.push(cfpClosesBefore(sql, sql`${f.cfp_closes_before}`));
  }
  if (f.cfp_closes_after !== undefined) {
    parts.push(cfpClosesAfter(sql, sql`${f.cfp_closes_after}`));
  }
  return parts;
}

/**
 * On `e`: the event is not hidden behind its group's canonical listing. A listing is hidden when
 * it is in a group whose canonical event is another one that also meets the filters `f` and the
 * words (`collapseMatch`): so a listing asked for by what only it has (its external_id, its
 * platform, a topic, a word only it holds) still shows. Events in no group (most) cost one
 * lookup in a unique index.
 */
export function shownCollapsed(sql: Sql, f: EventFilters): Fragment {
  // OFFSET 0 keeps the planner from turning the NOT EXISTS into an anti-join, which may hash
  // every hidden member and its canonical event first: a probe of the index for each event read
  // costs the same at any size, and a first page reads few events.
  return sql`NOT EXISTS (
    SELECT 1 FROM event_group_members g
    WHERE g.event_id = e.id AND NOT g.canonical
      AND ${canonicalMeets(sql, f, { group: sql`g.group_id`, member: sql`g.event_id` })}
    OFFSET 0)`;
}

/**
 * The canonical listing of the group `group` meets the filters `f` and the words
 * (`collapseMatch`), and holds every lexeme of `collapseLexemes` that its member `member` holds:
 * then that member, not the canonical listing itself, is hidden (shownCollapsed).
 */
export function canonicalMeets(
  sql: Sql,
  f: EventFilters,
  o: { group: Fragment; member: Fragment },
): Fragment {
  const words = f.collapseMatch === undefined
    ? sql``
    : sql`AND e.search_vector @@ ${f.collapseMatch}::tsquery`;
  const lexemes = f.collapseLexemes === undefined ? sql`` : sql`AND NOT EXISTS (
    SELECT 1 FROM events mv, unnest(${f.collapseLexemes}::text[]) AS l (lexeme)
    WHERE mv.id = ${o.member}
      AND tsvector_to_array(mv.search_vector) @> ARRAY[l.lexeme]
      AND NOT tsvector_to_array(e.search_vector) @> ARRAY[l.lexeme])`;
  // Inside, `e` is the canonical event (the filters' conditions name `e`), found by its id:
  // correlated, so only a hidden member's canonical event is read, never every event the
  // filters keep.
  return sql`EXISTS (
    SELECT 1 FROM events e
    WHERE e.id = ${o.group} AND ${filterConditions(sql, { ...f, collapse: false })} ${words}
      ${lexemes})`;
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
