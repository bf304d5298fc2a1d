/** How many events match a set of filters, counted only up to a bound. */
import type { Sql } from "postgres";
import { type EventFilters, filterConditions } from "./event-filters.ts";

/** A count that stops at `cap`: `capped` says more events match than `count`. */
export interface BoundedCount {
  count: number;
  capped: boolean;
}

/** Counts matching events, reading at most `cap + 1` of them so a broad filter stays cheap. */
export async function countEvents(
  sql: Sql,
  filters: EventFilters,
  cap: number,
): Promise<BoundedCount> {
  const [{ n }] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM events e WHERE ${filterConditions(sql, filters)} LIMIT ${cap + 1}
    ) matching`;
  return n > cap ? { count: cap, capped: true } : { count: n, capped: false };
}
