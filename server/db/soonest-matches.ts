/**
 * The soonest events of one text-match tier: the first step of listing and ranking by text.
 *
 * Two ways find them. Reading events in start order and testing each stops early when matches
 * are common; collecting every match from the GIN index and sorting them wins when they are
 * rare. The planner chooses between them from its estimate of how many events match, and that
 * estimate can be far off: words that always go together ("data engineering") are estimated as if
 * independent, 20 times too rare, so at 1,000,000 events it collected and sorted 28,000 matches
 * (400 ms) where reading 3,600 events in order would have done. So the order is fixed here: read
 * in start order, but only so many events per match wanted; if that does not find enough,
 * matches are rare, and the index collects them. Reading sqrt(kept x matches wanted) events, where
 * `kept` is how many events the filters keep (the planner's estimate: it is good at single
 * columns), balances the two: neither step then costs more than about that many rows. Within a
 * city the walk reads that city's events in start order (migration 010), so it is the city's
 * size that counts.
 */
import type { Sql } from "postgres";
import {
  afterPosition,
  conditionsBesidesFrom,
  type EventFilters,
  filterConditions,
} from "./event-reads.ts";
import { estimatedEvents } from "./filter-estimate.ts";
import { plannedWithValues } from "./planned-with-values.ts";
import { inStartOrder, notOverAt } from "./start-order.ts";

/** Bounds of the events read in start order per match wanted. */
const MIN_WALK_PER_MATCH = 5;
const MAX_WALK_PER_MATCH = 200;

/** Where the previous page ended, in start order. */
export interface StartPosition {
  starts_at: string;
  id: string;
}

/** The soonest `count` events (id and start) matching the tsquery `match` within the filters. */
export async function soonestMatches(
  sql: Sql,
  o: {
    match: string;
    filters: Omit<EventFilters, "q">;
    count: number;
    after?: StartPosition;
  },
): Promise<{ id: string; starts_at: Date }[]> {
  const besides = conditionsBesidesFrom(sql, o.filters);
  const filtered = await estimatedEvents(sql, o.filters);
  const walk = Math.round(
    Math.min(
      o.count * MAX_WALK_PER_MATCH,
      Math.max(o.count * MIN_WALK_PER_MATCH, Math.sqrt(filtered * o.count)),
    ),
  );
  const walked = await plannedWithValues(sql<{ id: string; starts_at: Date }[]>`
    SELECT w.id, w.starts_at FROM ${
    inStartOrder(sql, {
      at: notOverAt(sql, o.filters.from),
      conditions: sql`${besides} ${afterPosition(sql, o.after)}`,
      limit: walk,
      vector: true,
    })
  } w
    WHERE w.search_vector @@ ${o.match}::tsquery
    ORDER BY w.starts_at, w.id
    LIMIT ${o.count}`);
  if (walked.length === o.count) return walked;
  // Rare matches: from the index, sorted. The start time is wrapped so that no index on it can
  // serve the order or the cursor, which would read events one by one again.
  const shifted = sql`(e.starts_at + interval '0 seconds')`;
  const afterShifted = o.after
    ? sql`AND (${shifted}, e.id) > (${o.after.starts_at}::timestamptz, ${o.after.id}::uuid)`
    : sql``;
  return await plannedWithValues(sql<{ id: string; starts_at: Date }[]>`
    SELECT e.id, e.starts_at FROM events e
    WHERE ${filterConditions(sql, o.filters)} AND e.search_vector @@ ${o.match}::tsquery
      ${afterShifted}
    ORDER BY ${shifted}, e.id
    LIMIT ${o.count}`);
}
