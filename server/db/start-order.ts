/**
 * Events not yet over at an instant, and reading them in start order without walking the past.
 *
 * "Not over at X" is `coalesce(ends_at, starts_at) >= X`, which no index can serve: a listing in
 * start order began at the oldest event and skipped every past one (16,000 index entries and
 * rows for a listing from the first of March, when the year's events start in January; with years
 * of past events every listing would). The same events are two disjoint sets that indexes find:
 * those starting at X or later (the start index, from X on), and those under way at X (started
 * before, ending at or after it: the GiST index of migration 010 holds every event with a
 * duration). Everything under way starts before everything upcoming, so in start order the first
 * set follows the second.
 */
import type { Fragment, Sql } from "postgres";

/** The instant events must not be over at: `from`, or now. */
export function notOverAt(sql: Sql, from: Date | undefined): Fragment {
  return from === undefined ? sql`now()` : sql`${from}::timestamptz`;
}

/** On `e`: the event starts at `at` or later. */
export function upcomingAt(sql: Sql, at: Fragment): Fragment {
  return sql`e.starts_at >= ${at}`;
}

/**
 * On `e`: the event started before `at` and ends at or after it. `ends_at > starts_at` is the
 * partial GiST index's predicate, written out so that the planner may use it.
 */
export function underWayAt(sql: Sql, at: Fragment): Fragment {
  return sql`(e.ends_at > e.starts_at AND tstzrange(e.starts_at, e.ends_at, '[]') @> ${at}
    AND e.starts_at < ${at})`;
}

/** On `e`: the event is not over at `at` (either set; the planner may combine both indexes). */
export function notOver(sql: Sql, at: Fragment): Fragment {
  return sql`(${upcomingAt(sql, at)} OR ${underWayAt(sql, at)})`;
}

/**
 * The first `limit` events (id, starts_at and the column `also` selects from `e`) not over at
 * `at` and meeting `conditions`, in start order: a sub-select to read from. Each set is read in
 * start order from its own index and the two are merged, so nothing before `at` is walked.
 */
export function inStartOrder(
  sql: Sql,
  o: { at: Fragment; conditions: Fragment; limit: number; also?: Fragment },
): Fragment {
  const columns = o.also ? sql`e.id, e.starts_at, ${o.also}` : sql`e.id, e.starts_at`;
  const part = (set: Fragment) =>
    sql`(SELECT ${columns} FROM events e WHERE ${set} AND ${o.conditions}
         ORDER BY e.starts_at, e.id LIMIT ${o.limit})`;
  return sql`(
    SELECT s.* FROM (${part(underWayAt(sql, o.at))} UNION ALL ${part(upcomingAt(sql, o.at))}) s
    ORDER BY s.starts_at, s.id
    LIMIT ${o.limit}
  )`;
}
