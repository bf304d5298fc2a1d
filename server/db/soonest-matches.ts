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
 * matches are rare, and the index collects them. Reading sqrt(events / matches wanted) events per
 * match balances the two: neither step then costs more than about sqrt(events x matches) rows.
 */
import type { Sql } from "postgres";
import { type EventFilters, filterConditions } from "./event-reads.ts";
import { plannedWithValues } from "./planned-with-values.ts";

/** Bounds of the events read in start order per match wanted. */
const MIN_WALK_PER_MATCH = 20;
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
  const after = o.after
    ? sql`AND (e.starts_at, e.id) > (${o.after.starts_at}::timestamptz, ${o.after.id}::uuid)`
    : sql``;
  const perMatch = Math.round(
    Math.min(
      MAX_WALK_PER_MATCH,
      Math.max(MIN_WALK_PER_MATCH, Math.sqrt(await eventCount(sql) / o.count)),
    ),
  );
  const walked = await plannedWithValues(sql<{ id: string; starts_at: Date }[]>`
    SELECT w.id, w.starts_at FROM (
      SELECT e.id, e.starts_at, e.search_vector FROM events e
      WHERE ${filterConditions(sql, o.filters)} ${after}
      ORDER BY e.starts_at, e.id
      LIMIT ${o.count * perMatch}
    ) w
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

// The planner's estimate of the table's size, refreshed every minute: it changes slowly, and
// reading it costs a round trip.
const counts = new WeakMap<Sql, { rows: number; at: number }>();
const COUNT_TTL_MS = 60_000;

async function eventCount(sql: Sql): Promise<number> {
  const known = counts.get(sql);
  if (known && Date.now() - known.at < COUNT_TTL_MS) return known.rows;
  const [{ rows }] = await sql<{ rows: number }[]>`
    SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = 'events'::regclass`;
  // -1: never analysed (PGlite runs no autovacuum); assume a mid-sized table.
  const estimate = rows >= 0 ? rows : 100_000;
  counts.set(sql, { rows: estimate, at: Date.now() });
  return estimate;
}
