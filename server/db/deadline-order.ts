/**
 * Reading events in deadline order (`sort=cfp_closes_at`): soonest CFP deadline first, CFPs
 * without a deadline after every dated one, ties by id. Only events with a CFP have a place in it,
 * and the partial index of migration 030 holds exactly them in this order.
 */
import type { Fragment, Sql } from "postgres";
import { cfpDeadline } from "./cfp-rule.ts";

/** Where the next page of a deadline listing starts: the last row's deadline (or no deadline). */
export interface DeadlinePosition {
  /** The last row's `cfp_closes_at` as an ISO instant, or "infinity" for a CFP without one. */
  cfp_closes_at: string;
  id: string;
}

/** On `e`: the event comes after `after` in deadline order (no condition without it). */
function afterDeadline(sql: Sql, after: DeadlinePosition | undefined): Fragment {
  return after
    // Sent as text: the driver would read "infinity" as a Date.
    ? sql`AND (${cfpDeadline(sql)}, e.id) >
        (${after.cfp_closes_at}::text::timestamptz, ${after.id}::uuid)`
    : sql``;
}

/**
 * The first `limit` events with a CFP meeting `conditions` after `after`, in deadline order: a
 * sub-select of (id, deadline) to read from.
 */
export function inDeadlineOrder(
  sql: Sql,
  o: { conditions: Fragment; limit: number; after?: DeadlinePosition },
): Fragment {
  // `e.cfp_url IS NOT NULL` is the partial index's predicate, written out for the planner.
  return sql`(
    SELECT e.id, ${cfpDeadline(sql)} AS deadline FROM events e
    WHERE e.cfp_url IS NOT NULL AND ${o.conditions} ${afterDeadline(sql, o.after)}
    ORDER BY ${cfpDeadline(sql)}, e.id
    LIMIT ${o.limit}
  )`;
}

/** The position of a row in deadline order, from its `cfp_closes_at`. */
export function deadlinePositionOf(row: { id: string; cfp_closes_at: Date | null }) {
  return {
    cfp_closes_at: row.cfp_closes_at?.toISOString() ?? "infinity",
    id: row.id,
  } satisfies DeadlinePosition;
}
