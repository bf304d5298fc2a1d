/**
 * search_events: upcoming events by words, meaning, place and time, through the same search code
 * as GET /api/v1/events and /api/v1/search.
 */
import { z } from "zod";
import type { AppDeps } from "../app-env.ts";
import { countEvents } from "../db/event-counts.ts";
import type { EventFilters } from "../db/event-filters.ts";
import { LIST_ORDERS, listEvents } from "../db/event-reads.ts";
import { listEventsFairly } from "../events/fair-listing.ts";
import type { StoredEvent } from "../../shared/api-schemas.ts";
import { SEARCH_MODES, searchEvents, type SearchMode } from "../search/search-events.ts";
import { CompactEvent, compactEvent, type Site } from "./event-views.ts";
import { filterArguments, textArgument, toEventFilters } from "./filter-arguments.ts";
import { decodePageCursor, encodePageCursor, type PageCursor } from "./page-cursor.ts";
import { fitPage } from "./page-budget.ts";
import { strictArguments } from "./strict-arguments.ts";
import { ToolCallError } from "./tool-results.ts";

/** Ranked results can be paged through this far; past it, filters narrow better than pages. */
export const RANKED_WINDOW = 100;
/** Totals are counted up to this many events: "more than 100" says as much as an exact 4,711. */
export const TOTAL_CAP = 100;

export const SearchEventsInput = strictArguments({
  query: textArgument("query", 500).optional().describe(
    'What the asker is looking for, in words ("rust meetup", "conference on AI safety"). ' +
      "Leave it out to list events soonest first.",
  ),
  mode: z.enum(SEARCH_MODES, {
    error: () => `mode must be one of ${SEARCH_MODES.join(", ")}`,
  }).optional().describe(
    "text: the words must appear (title, topics, place, description). semantic: by meaning, " +
      "only among events in AI search. hybrid: both, fused. Default: hybrid when AI search is " +
      "available, text otherwise; the result's mode says which ran.",
  ),
  ...filterArguments,
  sort: z.enum(LIST_ORDERS, {
    error: () => `sort must be one of ${LIST_ORDERS.join(", ")}`,
  }).optional().describe(
    "starts_at: soonest start first. cfp_closes_at: events with a call for papers, soonest " +
      "deadline first (those without a deadline last); with a query, its words then filter " +
      "instead of ranking. Default: cfp_closes_at without a query when cfp is open, else " +
      "starts_at (a query ranks).",
  ),
  limit: z.number({ error: () => "limit must be a whole number from 1 to 50" })
    .int({ error: "limit must be a whole number from 1 to 50" })
    .min(1, { error: "limit must be a whole number from 1 to 50" })
    .max(50, { error: "limit must be a whole number from 1 to 50" })
    .default(10).describe("Events per page, 1 to 50; default 10."),
  cursor: z.string({ error: () => "cursor must be the next_cursor string of a previous result" })
    .max(500, { error: "cursor is not one this server issued: use next_cursor unchanged" })
    .optional().describe("next_cursor of the previous page, with the same other arguments."),
});

const Period = z.object({
  when: z.string(),
  timezone: z.string(),
  from: z.string().describe("Start of the period, UTC."),
  to: z.string().describe("End of the period (exclusive), UTC."),
});

export const SearchEventsOutput = z.object({
  mode: z.enum(["upcoming", ...SEARCH_MODES]).describe(
    "What ran: upcoming (a listing: soonest first, or soonest deadline first with sort " +
      "cfp_closes_at), text, semantic or hybrid.",
  ),
  query: z.string().nullable(),
  total: z.number().int().nullable().describe(
    "How many events match a listing (no query); null for a ranked search, which shows the " +
      "best matches (page on with next_cursor).",
  ),
  total_capped: z.boolean().describe(`true when more than ${TOTAL_CAP} match (total stops there).`),
  period: Period.nullable().describe("The period `when` was read as, if given."),
  results: z.array(CompactEvent),
  next_cursor: z.string().nullable().describe("Pass as cursor for the next page; null at the end."),
  notices: z.array(z.string()).describe("Things the asker may need to know about these results."),
  interpreted: z.object({
    city: z.string().optional(),
    country: z.string().optional(),
    attendance: z.enum(["online", "in_person"]).optional(),
    when: z.string().optional(),
    from: z.string().optional(),
    to: z.string().optional(),
    ranked: z.object({
      city: z.string().optional(),
      country: z.string().optional(),
      attendance: z.enum(["online", "in_person"]).optional(),
      when: z.string().optional(),
    }).optional().describe("Named in the query but only ranked, not applied as a filter."),
    cfp: z.enum(["open"]).optional(),
  }).optional().describe(
    "With a query: what its words were read as besides their subject (a place, online or in " +
      "person, a period, open calls for papers), applied as filters; empty when nothing. Explicit arguments win.",
  ),
});
type SearchEventsOutput = z.infer<typeof SearchEventsOutput>;
type Arguments = z.output<typeof SearchEventsInput>;

/** Runs search_events. */
export async function searchEventsTool(
  deps: AppDeps,
  site: Site,
  args: Arguments,
): Promise<SearchEventsOutput> {
  const { filters, period } = toEventFilters(args, new Date());
  const cursor = args.cursor === undefined
    ? undefined
    : decodePageCursor(args.cursor, RANKED_WINDOW);
  const notices: string[] = [];
  let page: Page;
  const byDeadline = args.sort === "cfp_closes_at" ||
    (args.sort === undefined && args.query === undefined && args.cfp === "open");
  if (byDeadline) {
    page = await deadlineListing(deps, site, {
      filters: { ...filters, ...(args.query === undefined ? {} : { q: args.query }) },
      limit: args.limit,
      cursor,
    });
  } else if (args.query === undefined) {
    if (args.mode !== undefined) {
      notices.push("mode applies only with a query: these are upcoming events, soonest first.");
    }
    page = await listing(deps, site, { filters, limit: args.limit, cursor });
  } else {
    const { query, mode, limit } = args;
    page = await ranked(deps, site, {
      query,
      mode,
      limit,
      filters,
      cursor,
      timeZone: args.timezone,
    });
  }
  return { ...page, period, notices: [...notices, ...page.notices ?? []] };
}

type Page = Omit<SearchEventsOutput, "period" | "notices"> & { notices?: string[] };

/**
 * Upcoming events without a query: the fair front page (server/events/fair-listing.ts). A cursor
 * of the plain order (issued before) still pages in that order.
 */
async function listing(
  deps: AppDeps,
  site: Site,
  o: { filters: Omit<EventFilters, "q">; limit: number; cursor?: PageCursor },
): Promise<Page> {
  if (o.cursor?.kind === "ranked") throw wrongCursor();
  const sql = deps.db.sql;
  let page: { events: StoredEvent[]; next: PageCursor | null };
  let results: CompactEvent[];
  let limit = o.limit;
  // A page too large for the answer's budget is asked again with fewer events, so that the
  // cursor starts right after what is shown; each try asks for fewer, so this ends.
  for (;;) {
    page = await listingPage(sql, { ...o, limit });
    results = page.events.map((e) => compactEvent(e, site));
    const kept = fitPage(results);
    if (kept >= results.length || limit <= 1) break;
    limit = Math.max(1, kept);
  }
  // A first page that holds everything is its own count.
  const total = !o.cursor && !page.next
    ? { count: page.events.length, capped: false }
    : await countEvents(sql, o.filters, TOTAL_CAP);
  return {
    mode: "upcoming",
    query: null,
    total: total.count,
    total_capped: total.capped,
    results: results.slice(0, fitPage(results)),
    next_cursor: page.next ? encodePageCursor(page.next) : null,
  };
}

/** Events with a CFP, soonest deadline first (with a query, those matching its words). */
async function deadlineListing(
  deps: AppDeps,
  site: Site,
  o: { filters: EventFilters; limit: number; cursor?: PageCursor },
): Promise<Page> {
  const after = o.cursor?.kind === "listing" ? o.cursor.after : undefined;
  if (o.cursor !== undefined && after?.cfp_closes_at === undefined) throw wrongCursor();
  const sql = deps.db.sql;
  let limit = o.limit;
  let page: Awaited<ReturnType<typeof listEvents>>;
  let results: CompactEvent[];
  // As in `listing`: a page too large for the budget is asked again with fewer events.
  for (;;) {
    page = await listEvents(sql, o.filters, { limit, after, sort: "cfp_closes_at" });
    results = page.events.map((e) => compactEvent(e, site));
    const kept = fitPage(results);
    if (kept >= results.length || limit <= 1) break;
    limit = Math.max(1, kept);
  }
  const total = !o.cursor && !page.next
    ? { count: page.events.length, capped: false }
    : await countEvents(sql, { ...o.filters, cfp: o.filters.cfp ?? "any" }, TOTAL_CAP);
  return {
    mode: "upcoming",
    query: o.filters.q ?? null,
    total: total.count,
    total_capped: total.capped,
    results: results.slice(0, fitPage(results)),
    next_cursor: page.next ? encodePageCursor({ kind: "listing", after: page.next }) : null,
  };
}

/** One page of the listing, fair unless the cursor is of the plain order. */
async function listingPage(
  sql: AppDeps["db"]["sql"],
  o: { filters: Omit<EventFilters, "q">; limit: number; cursor?: PageCursor },
): Promise<{ events: StoredEvent[]; next: PageCursor | null }> {
  if (o.cursor?.kind === "listing") {
    const plain = await listEvents(sql, o.filters, { limit: o.limit, after: o.cursor.after });
    return {
      events: plain.events,
      next: plain.next && { kind: "listing", after: plain.next },
    };
  }
  const fair = await listEventsFairly(sql, o.filters, {
    limit: o.limit,
    after: o.cursor?.kind === "fair" ? o.cursor.after : undefined,
  });
  return { events: fair.events, next: fair.next && { kind: "fair", after: fair.next } };
}

async function ranked(
  deps: AppDeps,
  site: Site,
  o: {
    query: string;
    mode?: SearchMode;
    timeZone?: string;
    limit: number;
    filters: Omit<EventFilters, "q">;
    cursor?: PageCursor;
  },
): Promise<Page> {
  if (o.cursor && o.cursor.kind !== "ranked") throw wrongCursor();
  const offset = o.cursor?.offset ?? 0;
  const end = Math.min(offset + o.limit, RANKED_WINDOW);
  const result = await searchEvents(deps.db.sql, deps.ai, {
    q: o.query,
    mode: o.mode,
    filters: o.filters,
    limit: end + 1,
    timeZone: o.timeZone,
  });
  const { mode, interpreted } = result;
  const notices = [...result.notices];
  const hits = result.hits.slice(offset, end);
  const results = hits.map((h) => compactEvent(h.event, site, h.score));
  const kept = fitPage(results);
  const more = kept < results.length || (result.hits.length > end && end < RANKED_WINDOW);
  if (result.hits.length > end && end === RANKED_WINDOW) {
    notices.push(
      `Only the best ${RANKED_WINDOW} matches can be paged through: add filters (city, when, ` +
        "topic, ...) to reach others.",
    );
  }
  // No total here: counting every text match costs as much again as the search itself.
  return {
    mode,
    query: o.query,
    total: null,
    total_capped: false,
    results: results.slice(0, kept),
    next_cursor: more ? encodePageCursor({ kind: "ranked", offset: offset + kept }) : null,
    notices,
    interpreted,
  };
}

function wrongCursor(): ToolCallError {
  return new ToolCallError(
    "cursor belongs to another search: repeat the previous call's query unchanged with it, or " +
      "leave cursor out to start again",
  );
}
