/**
 * What a call for papers' status is at an instant, as SQL on `events e`: the one definition that
 * `cfp_status`, the `cfp=open` filter and the deadline order share (docs/api.md#calls-for-papers).
 * A CFP is open from `cfp_opens_at` (or always, without one) through the second of
 * `cfp_closes_at` (or for good, without one); an event without `cfp_url` has no CFP.
 */
import type { Fragment, Sql } from "postgres";

/** The instant a CFP is judged at: `at`, or the statement's now(). */
export function cfpMoment(sql: Sql, at: Date | undefined): Fragment {
  return at === undefined ? sql`now()` : sql`${at}::timestamptz`;
}

/** On `e`: the CFP has closed by `at` (its closing second is over). */
function closedBy(sql: Sql, at: Fragment): Fragment {
  return sql`e.cfp_closes_at <= ${at} - interval '1 second'`;
}

/** On `e`: the event has a CFP open at `at`. */
export function cfpOpenAt(sql: Sql, at: Fragment): Fragment {
  // Written as a range on the deadline key, so that the partial index of migration 030 serves it.
  return sql`(e.cfp_url IS NOT NULL
    AND coalesce(e.cfp_closes_at, 'infinity'::timestamptz) > ${at} - interval '1 second'
    AND (e.cfp_opens_at IS NULL OR e.cfp_opens_at <= ${at}))`;
}

/**
 * On `e`: the `cfp` filter's condition, `own` (on `e`) met by the event's own CFP or, when it has
 * none, by another listing of its group (lentCfpMeets).
 */
export function cfpOwnOrLent(sql: Sql, own: Fragment): Fragment {
  return sql`(${own} OR ${lentCfpMeets(sql, own)})`;
}

/** On `e`: the event's own CFP closes strictly before `at`. */
export function cfpClosesBefore(sql: Sql, at: Fragment): Fragment {
  return sql`(e.cfp_url IS NOT NULL AND e.cfp_closes_at < ${at})`;
}

/** On `e`: the event's own CFP closes strictly after `at`. */
export function cfpClosesAfter(sql: Sql, at: Fragment): Fragment {
  return sql`(e.cfp_url IS NOT NULL AND e.cfp_closes_at > ${at})`;
}

/** On `e`: `open`, `not_yet_open`, `closed`, or null without a CFP, at `at`. */
export function cfpStatus(sql: Sql, at: Fragment): Fragment {
  return sql`CASE WHEN e.cfp_url IS NULL THEN NULL
    WHEN e.cfp_closes_at IS NOT NULL AND ${closedBy(sql, at)} THEN 'closed'
    WHEN e.cfp_opens_at > ${at} THEN 'not_yet_open'
    ELSE 'open' END`;
}

/** On `e`: the deadline order's key (no deadline sorts after every date), as in the index. */
export function cfpDeadline(sql: Sql): Fragment {
  return sql`coalesce(e.cfp_closes_at, 'infinity'::timestamptz)`;
}

/**
 * On `e`: the event has no CFP and another listing of its group (duplicates) has one meeting
 * `condition` (written on `e`, which inside it is that other listing).
 */
export function lentCfpMeets(sql: Sql, condition: Fragment): Fragment {
  return sql`(e.cfp_url IS NULL AND EXISTS (
    SELECT 1 FROM event_group_members m
    JOIN event_group_members om ON om.group_id = m.group_id AND om.event_id <> m.event_id
    WHERE m.event_id = e.id
      AND EXISTS (SELECT 1 FROM events e WHERE e.id = om.event_id AND ${condition})))`;
}

/**
 * On `e`, a member of the group `group`: the CFP another listing of the group lends it when it has
 * none of its own (the most recently updated one with a CFP), as JSON with its id, platform, CFP
 * fields and status; null when it has its own CFP or none is lent.
 */
export function lentCfp(sql: Sql, group: Fragment): Fragment {
  // `b` is read from a LATERAL sub-select so that `e` inside it is the other listing while the
  // WHERE clause here still names the outer event.
  return sql`(
    SELECT json_build_object('id', b.id, 'platform', b.platform, 'cfp_url', b.cfp_url,
      'cfp_opens_at', b.cfp_opens_at, 'cfp_closes_at', b.cfp_closes_at,
      'cfp_status', b.cfp_status)
    FROM event_group_members om
    CROSS JOIN LATERAL (
      SELECT e.id, e.platform, e.cfp_url, e.cfp_opens_at, e.cfp_closes_at, e.updated_at,
        ${cfpStatus(sql, sql`now()`)} AS cfp_status
      FROM events e WHERE e.id = om.event_id AND e.cfp_url IS NOT NULL
    ) b
    WHERE om.group_id = ${group} AND om.event_id <> e.id AND e.cfp_url IS NULL
    ORDER BY b.updated_at DESC, b.id
    LIMIT 1)`;
}
