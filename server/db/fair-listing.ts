/**
 * The two streams the fair front page is made from (server/events/fair-listing.ts): events of
 * reviewed contributors soonest first, and events of unreviewed contributors in rounds (each
 * contributor's first `perRound` events, soonest first, then their next `perRound`, ...). Both
 * take the listing's filters through the same conditions as every other reader.
 */
import type { Sql } from "postgres";
import {
  afterPosition,
  conditionsBesidesFrom,
  type EventFilters,
  filterConditions,
} from "./event-filters.ts";
import { inStartOrder, notOverAt } from "./start-order.ts";
import { unreviewedContributorIds } from "./unreviewed-rule.ts";

/** An event's place in a stream. */
export interface StreamEvent {
  id: string;
  starts_at: string;
  contributor_id: string;
}

/** An unreviewed contributor's event, with its round. */
export interface RoundEvent extends StreamEvent {
  round: number;
}

/** Where a stream was left: the sort key of its last event shown. */
export type StreamPosition = { starts_at: string; id: string };
export type RoundPosition = StreamPosition & { round: number };

/** The ids of the unreviewed contributors now. */
export async function unreviewedIds(sql: Sql): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`SELECT id FROM ${unreviewedContributorIds(sql)} u`;
  return rows.map((r) => r.id);
}

/** Reviewed contributors' events after `after`, soonest first, at most `limit`. */
export async function reviewedStream(
  sql: Sql,
  o: {
    filters: Omit<EventFilters, "q">;
    unreviewed: string[];
    after?: StreamPosition;
    limit: number;
  },
): Promise<StreamEvent[]> {
  const page = inStartOrder(sql, {
    at: notOverAt(sql, o.filters.from),
    conditions: sql`${conditionsBesidesFrom(sql, o.filters)}
      AND NOT (e.contributor_id = ANY(${o.unreviewed}::uuid[])) ${afterPosition(sql, o.after)}`,
    limit: o.limit,
    also: sql`e.contributor_id`,
  });
  const rows = await sql<{ id: string; starts_at: Date; contributor_id: string }[]>`
    SELECT p.id, p.starts_at, p.contributor_id FROM ${page} p ORDER BY p.starts_at, p.id`;
  return rows.map((r) => ({ ...r, starts_at: r.starts_at.toISOString() }));
}

/**
 * Unreviewed contributors' events after `after` in round order (round, then soonest first), at
 * most `limit`. Each contributor's events are numbered soonest first among those the filters
 * keep; round n holds its events numbered n * perRound to (n + 1) * perRound - 1.
 *
 * Each contributor's events are read from its own index (contributor, start) from the cursor's
 * round on: `limit + perRound` of them are always enough, since at most `perRound` of them
 * (those of the cursor's round) can lie before the cursor, and any event past those would come
 * after `limit` of the contributor's own. So a page reads a few rows per unreviewed contributor,
 * not every event they hold.
 */
export async function unreviewedStream(
  sql: Sql,
  o: {
    filters: Omit<EventFilters, "q">;
    unreviewed: string[];
    perRound: number;
    after?: RoundPosition;
    limit: number;
  },
): Promise<RoundEvent[]> {
  if (o.unreviewed.length === 0) return [];
  const base = (o.after?.round ?? 0) * o.perRound;
  const after = o.after
    ? sql`WHERE (r.round, r.starts_at, r.id) >
        (${o.after.round}::int, ${o.after.starts_at}::timestamptz, ${o.after.id}::uuid)`
    : sql``;
  const rows = await sql<{ id: string; starts_at: Date; contributor_id: string; round: number }[]>`
    SELECT r.id, r.starts_at, r.contributor_id, r.round FROM (
      SELECT x.id, x.starts_at, x.contributor_id,
        ((${base}::int + x.n - 1) / ${o.perRound}::int)::int AS round
      FROM unnest(${o.unreviewed}::uuid[]) AS u (contributor_id)
      CROSS JOIN LATERAL (
        SELECT s.*, row_number() OVER (ORDER BY s.starts_at, s.id) AS n FROM (
          SELECT e.id, e.starts_at, e.contributor_id FROM events e
          WHERE e.contributor_id = u.contributor_id AND ${filterConditions(sql, o.filters)}
          ORDER BY e.starts_at, e.id
          OFFSET ${base} LIMIT ${o.limit + o.perRound}
        ) s
      ) x
    ) r
    ${after}
    ORDER BY r.round, r.starts_at, r.id
    LIMIT ${o.limit}`;
  return rows.map((r) => ({ ...r, starts_at: r.starts_at.toISOString() }));
}
