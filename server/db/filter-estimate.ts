/**
 * How many events a set of filters keeps, as the planner estimates it: what decides how far a
 * reader in start order may walk before an index collecting every match is the cheaper way
 * (server/db/soonest-matches.ts); and the share of listings collapse may hide. Planning a
 * one-table statement costs well under a millisecond, and estimates change slowly, so each is
 * remembered for a minute.
 */
import type { Fragment, Sql } from "postgres";
import { type EventFilters, filterConditions } from "./event-filters.ts";
import { plannedWithValues } from "./planned-with-values.ts";

const TTL_MS = 60_000;
/** Distinct estimates remembered per database; the memory is emptied when full. */
const MAX_REMEMBERED = 1_000;

const remembered = new WeakMap<Sql, Map<string, { value: number; at: number }>>();

/** The estimate `key` of the database, remembered for TTL_MS, else made by `estimate`. */
async function rememberedEstimate(
  sql: Sql,
  key: string,
  estimate: () => Promise<number>,
): Promise<number> {
  let known = remembered.get(sql);
  if (!known) remembered.set(sql, known = new Map());
  const hit = known.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
  const value = await estimate();
  if (known.size >= MAX_REMEMBERED) known.clear();
  known.set(key, { value, at: Date.now() });
  return value;
}

/**
 * The planner's estimate of the events that the filters keep (at least 1), duplicates not
 * collapsed: collapse hides group members only, a small share of the events, but the planner
 * cannot see into its probe and guesses that it keeps half: a collapsed reader would size its walk
 * or its pool for half the events it meets.
 */
export async function estimatedEvents(
  sql: Sql,
  all: Omit<EventFilters, "q">,
): Promise<number> {
  const { collapse: _, collapseMatch: _m, collapseLexemes: _l, ...filters } = all;
  return await rememberedEstimate(
    sql,
    `events ${JSON.stringify(filters)}`,
    async () =>
      Math.max(1, await plannedRows(sql, filterConditions(sql, { ...filters, collapse: false }))),
  );
}

/**
 * The share of events (0-1) that collapse can hide, as the statistics count them: the listings
 * of a duplicate group other than its canonical one. Readers size a first fetch by it, so that a
 * page rarely needs a second round for its hidden events.
 */
export async function estimatedHiddenShare(sql: Sql): Promise<number> {
  return await rememberedEstimate(sql, "hidden share", async () => {
    const [row] = await sql<{ members: number; events: number }[]>`
      SELECT (SELECT reltuples FROM pg_class
              WHERE oid = 'event_group_members_hidden_idx'::regclass) AS members,
             (SELECT reltuples FROM pg_class WHERE oid = 'events'::regclass) AS events`;
    // -1: never counted (a table not yet vacuumed or analysed).
    return row.members > 0 && row.events > 0 ? Math.min(1, row.members / row.events) : 0;
  });
}

/** The planner's estimate of the events meeting `condition` (on `e`), planned for its values. */
export async function plannedRows(sql: Sql, condition: Fragment): Promise<number> {
  // Planned for the values, as the readers that use the estimate are.
  const [row] = await plannedWithValues(
    sql<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }[]>`
    EXPLAIN (FORMAT JSON) SELECT 1 FROM events e WHERE ${condition}`,
  );
  return row["QUERY PLAN"][0].Plan["Plan Rows"];
}
