/**
 * The soonest events of one text-match tier: the first step of listing and ranking by text.
 *
 * Reading events in start order and testing each stops early when matches are common;
 * collecting matches from the GIN index wins when they are rare. The planner chooses between
 * them from its estimate of how many events match, and that estimate can be far off: words that
 * always go together ("data engineering") are estimated as if independent, 20 times too rare, so
 * at 1,000,000 events it collected and sorted 28,000 matches (400 ms) where reading 3,600 events in
 * order would have done. So the order is fixed here, and the walk itself measures how common the
 * matches are:
 *
 * 1. Read a first stretch of events in start order: up to sqrt(kept x matches wanted), where
 *    `kept` is the planner's estimate of the events the filters keep (good for single columns),
 *    and at most 1,500.
 *    Common matches end here. (A filter keeping fewer events than the stretch ends here too,
 *    and the index confirms that nothing is left.)
 * 2. If the share of matches seen puts the rest within sqrt(kept x matches wanted) events in all,
 *    walk on once.
 * 3. Otherwise ask the index for the matches in the span of start times where the rest should lie
 *    at the pace of the matches seen (twice that span, and more): the start index ANDed with the
 *    text index fetches only the rows in that span, not every match (at 100,000 events, 79
 *    buffers instead of the 2,400 of "typescript berlin"). Whatever that misses, the index
 *    collects beyond the span.
 *    When the matches seen share one instant (a feed of all-day events at midnight, or the
 *    synthetic million's 2,772 events at each 18:00), their pace in time is nil and sizes no span:
 *    then the span is a count of rows instead, the next so many events in start order as the share
 *    of matches seen foresees, ending at the start the start index finds there.
 *
 * Within a city the walk reads that city's events in start order (migration 010).
 */
import type { Fragment, Sql } from "postgres";
import {
  afterPosition,
  conditionsBesidesFrom,
  type EventFilters,
  filterConditions,
} from "./event-filters.ts";
import { estimatedEvents } from "./filter-estimate.ts";
import { plannedWithValues } from "./planned-with-values.ts";
import { inStartOrder, notOverAt } from "./start-order.ts";

/** Bounds of the events walked in all, per match wanted. */
const MIN_WALK_PER_MATCH = 5;
const MAX_WALK_PER_MATCH = 200;
/**
 * The first stretch, at most: within it one statement reads on until the matches are found (the
 * common case), so it is generous, since every further statement costs as much as reading 300
 * events on PGlite; beyond it, matches too few to end there are cheaper to ask the index for in a
 * span of start times (step 3) than to walk to.
 */
const FIRST_WALK_ROWS = 1_500;

/** Where the previous page ended, in start order. */
export interface StartPosition {
  starts_at: string;
  id: string;
}

/**
 * The soonest `count` events (id and start) matching the tsquery `match` within the filters,
 * duplicates not collapsed: the listing drops hidden ones from its page (server/db/event-reads.ts).
 */
export async function soonestMatches(
  sql: Sql,
  asked: {
    match: string;
    filters: Omit<EventFilters, "q">;
    count: number;
    after?: StartPosition;
  },
): Promise<Soonest[]> {
  const o = { ...asked, filters: { ...asked.filters, collapse: false } };
  const kept = await estimatedEvents(sql, o.filters);
  // The most a walk may read before the index is asked (step 3).
  const most = Math.round(
    Math.min(
      o.count * MAX_WALK_PER_MATCH,
      Math.max(o.count * MIN_WALK_PER_MATCH, Math.sqrt(kept * o.count)),
    ),
  );
  const budget = Math.min(most, Math.max(o.count * MIN_WALK_PER_MATCH, FIRST_WALK_ROWS));
  const found = await walkInStartOrder(sql, { ...o, budget });
  if (found.length === o.count) return found;
  const rate = found.length / budget;
  let read = budget;
  // Fewer matches than wanted: the walk read its whole budget, or every event the filters keep
  // (likely when they keep fewer; then the index confirms it at once). Either way the rest start
  // after its last match.
  if (rate > 0 && kept > budget) {
    // The matches seen tell how far on the rest lie at that pace: walk on, with room for chance,
    // if that stays within the most. (A statement costs as much as reading 300 events on PGlite:
    // a second walk that falls short would cost more than reading generously.)
    const onward = Math.ceil(((o.count - found.length) / rate) * 2) + 100;
    if (budget + onward <= most) {
      found.push(
        ...await walkInStartOrder(sql, {
          ...o,
          after: positionOf(found.at(-1)!),
          count: o.count - found.length,
          budget: onward,
        }),
      );
      if (found.length === o.count) return found;
      read += onward;
    }
  }
  let after = found.length > 0 ? positionOf(found.at(-1)!) : o.after;
  // Where the rest should lie at the pace of the matches seen: the index is asked for matches in
  // that span first, so that it fetches those rows only, not every match.
  const perMatch = found.length < 2 || kept <= budget
    ? 0
    : (found.at(-1)!.starts_at.getTime() - found[0].starts_at.getTime()) / (found.length - 1);
  if (perMatch === 0 && found.length > 0 && kept > budget) {
    // The matches seen share one instant (events starting together by the thousand): no span of
    // time can be sized from them, but a count of rows can, at their share of the rows read.
    return [
      ...found,
      ...await collectByRows(sql, {
        ...o,
        after: positionOf(found.at(-1)!),
        count: o.count - found.length,
        share: found.length / read,
        kept,
      }),
    ];
  }
  for (let widen = 1; perMatch > 0 && widen <= 4; widen *= 4) {
    const rest = o.count - found.length;
    // Room for chance: a span expected to hold one match holds none one time in three.
    const until = new Date(
      Date.parse(after!.starts_at) + perMatch * (rest * WINDOW_SLACK + WINDOW_EXTRA) * widen,
    );
    const near = await collectFromIndex(sql, { ...o, after, count: rest, until });
    found.push(...near);
    if (near.length === rest) return found;
    after = { starts_at: until.toISOString(), id: MAX_UUID };
  }
  return [...found, ...await collectFromIndex(sql, { ...o, after, count: o.count - found.length })];
}

/** How many more rows than the share foresees a span of rows is given (half as many, plus a few). */
const ROW_SLACK = 1.5;
const ROW_EXTRA = 100;
/** Spans of rows asked for before the index is asked for every match left. */
const ROW_ROUNDS = 3;
/** How much further the next span reaches when one held no match. */
const ROWS_WHEN_NONE = 8;

/**
 * The soonest `count` matches after `after` from the text index, among the next so many events in
 * start order: first as many as `share` (matches per event read) foresees with room for chance,
 * then as many as the share found there foresees; past ROW_ROUNDS spans, every match left.
 */
async function collectByRows(
  sql: Sql,
  o: {
    match: string;
    filters: Omit<EventFilters, "q">;
    count: number;
    after: StartPosition;
    share: number;
    kept: number;
  },
): Promise<Soonest[]> {
  const found: Soonest[] = [];
  let after = o.after;
  let rows = Math.ceil((o.count / o.share) * ROW_SLACK) + ROW_EXTRA;
  for (let round = 0; round < ROW_ROUNDS && rows < o.kept; round++) {
    const rest = o.count - found.length;
    const near = await collectWithinRows(sql, { ...o, after, count: rest, rows });
    found.push(...near);
    if (near.length === rest) return found;
    const seen = near.length / rows;
    if (near.length > 0) after = positionOf(near.at(-1)!);
    rows = seen > 0
      ? Math.ceil(((rest - near.length) / seen) * ROW_SLACK) + ROW_EXTRA
      : rows * ROWS_WHEN_NONE;
  }
  return [...found, ...await collectFromIndex(sql, { ...o, after, count: o.count - found.length })];
}

/**
 * The first `count` matches among the next `rows` events within the filters in start order
 * (after `after`), from the text index: the start index finds where those rows end, and the
 * span of start times up to there is what it ANDs with the text index. Every event starting at
 * that last instant is in the span, however many share it.
 */
async function collectWithinRows(
  sql: Sql,
  o: {
    match: string;
    filters: Omit<EventFilters, "q">;
    count: number;
    rows: number;
    after: StartPosition;
  },
): Promise<Soonest[]> {
  const read = inStartOrder(sql, {
    at: notOverAt(sql, o.filters.from),
    conditions: sql`${conditionsBesidesFrom(sql, o.filters)} ${afterPosition(sql, o.after)}`,
    limit: o.rows,
  });
  // Plain bounds on the start, which the start index can AND with the text index.
  const span = sql`AND e.starts_at BETWEEN ${o.after.starts_at}::timestamptz
    AND (SELECT max(r.starts_at) FROM ${read} r)`;
  return await collectFromIndex(sql, { ...o, span });
}

function positionOf(match: Soonest): StartPosition {
  return { starts_at: match.starts_at.toISOString(), id: match.id };
}

/** How much more than the rest a span is expected to hold (twice, plus a few). */
const WINDOW_SLACK = 2;
const WINDOW_EXTRA = 10;
/** Sorts after every uuid: a position after every event starting at the same instant. */
const MAX_UUID = "ffffffff-ffff-ffff-ffff-ffffffffffff";

/** An event found by a text tier. */
export interface Soonest {
  id: string;
  starts_at: Date;
}

/** The statement of `found`, planned for its values unless `kept` (a plan that fits every value). */
function selected(sql: Sql, found: Fragment, o: { kept: boolean } = { kept: false }) {
  const query = sql<Soonest[]>`${found}`;
  return o.kept ? query : plannedWithValues(query);
}

/**
 * Whether a walk in start order has one best plan whatever the values: with no filters but a city
 * or a country, it reads the start index (or that city's or country's, migration 010) in order
 * from now, the words only tested on the rows read. Such a walk is a prepared statement whose plan
 * the connection keeps: planning it anew cost more than reading its 1,500 events (a text search's
 * CPU at 100,000 events, A/B: PGlite 24.9 -> 16.1 ms, PostgreSQL 15 server 8.8 -> 6.1; within a
 * city, 28.6 -> 16.1 and 10.4 -> 6.0). Other filters' values change the best plan, so such walks
 * are planned for their values: from a given instant, the events under way then are found in the
 * span index or by reading the start index up to it, whichever the instant makes cheaper (a kept
 * plan cost 11.7 -> 41.7 ms of server CPU from 1 March).
 */
function onePlanFits(filters: Omit<EventFilters, "q">): boolean {
  return Object.entries(filters).every(([name, value]) =>
    value === undefined || ONE_PLAN_FILTERS.has(name)
  );
}

/** Filters whose values leave a walk's best plan as it is. */
const ONE_PLAN_FILTERS = new Set(["collapse", "city", "country"]);

/** The first `count` matches among `budget` events read in start order after `after`. */
async function walkInStartOrder(
  sql: Sql,
  o: {
    match: string;
    filters: Omit<EventFilters, "q">;
    count: number;
    budget: number;
    after?: StartPosition;
  },
): Promise<Soonest[]> {
  const read = inStartOrder(sql, {
    at: notOverAt(sql, o.filters.from),
    conditions: sql`${conditionsBesidesFrom(sql, o.filters)} ${afterPosition(sql, o.after)}`,
    limit: o.budget,
    // Tested as each event is read: its tsvector (1 KB on average) goes no further.
    also: sql`e.search_vector @@ ${o.match}::tsquery AS hit`,
  });
  return await selected(
    sql,
    sql`SELECT e.id, e.starts_at FROM ${read} e WHERE e.hit
        ORDER BY e.starts_at, e.id
        LIMIT ${o.count}`,
    { kept: onePlanFits(o.filters) },
  );
}

/**
 * Rare matches: from the GIN index, sorted. The start time is wrapped so that no index on it can
 * serve the order or the cursor, which would read events one by one again.
 */
async function collectFromIndex(
  sql: Sql,
  o: {
    match: string;
    filters: Omit<EventFilters, "q">;
    count: number;
    after?: StartPosition;
    /** Only events starting by then: the start index narrows the rows fetched. */
    until?: Date;
    /** Or any condition on the start the start index can serve. */
    span?: Fragment;
  },
): Promise<Soonest[]> {
  const shifted = sql`(e.starts_at + interval '0 seconds')`;
  const afterShifted = o.after
    ? sql`AND (${shifted}, e.id) > (${o.after.starts_at}::timestamptz, ${o.after.id}::uuid)`
    : sql``;
  // The plain bounds are what the start index can AND with the text index.
  const window = o.until && o.after
    ? sql`AND e.starts_at BETWEEN ${o.after.starts_at}::timestamptz AND ${o.until}`
    : o.span ?? sql``;
  return await selected(
    sql,
    sql`SELECT e.id, e.starts_at FROM events e
        WHERE ${filterConditions(sql, o.filters)}
          AND e.search_vector @@ ${o.match}::tsquery
          ${afterShifted} ${window}
        ORDER BY ${shifted}, e.id
        LIMIT ${o.count}`,
  );
}
