/**
 * GET /events.ics and /events.atom: any listing as a feed, taking exactly the query parameters of
 * GET /api/v1/events (parsed by the same schema) and listing with the same function.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { EventListQuery, filtersOf, listOrderOf, parseQuery } from "../../api/event-query.ts";
import { listEvents } from "../../db/event-reads.ts";
import { listEventsFairly } from "../../events/fair-listing.ts";
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import { calendarOf } from "../feeds/ics-writer.ts";
import { atomFeedOf } from "../feeds/atom-writer.ts";
import { siteOrigin } from "../../request-origin.ts";
import { withParams } from "../page-query.ts";

/** Feeds hold the largest page the API gives unless `limit` says otherwise. */
const FEED_DEFAULT_LIMIT = "100";

/**
 * A feed without words (and without a cursor of the list API) is the fair front page
 * (server/events/fair-listing.ts); with them, the API's listing.
 */
async function feedEvents(c: Context<AppEnv>): Promise<StoredEvent[]> {
  const raw = c.req.query();
  const query = parseQuery(EventListQuery, { limit: FEED_DEFAULT_LIMIT, ...raw });
  const sql = c.get("deps").db.sql;
  const filters = filtersOf(query);
  const sort = listOrderOf(query);
  if (filters.q === undefined && query.cursor === undefined && sort === "starts_at") {
    const { q: _q, ...rest } = filters;
    return (await listEventsFairly(sql, rest, { limit: query.limit })).events;
  }
  const page = await listEvents(sql, filters, { limit: query.limit, after: query.cursor, sort });
  return page.events;
}

/** A feed's title: what it lists. */
function feedTitle(c: Context): string {
  const q = c.req.query();
  const parts = [
    q.q ? `“${q.q}”` : null,
    q.topic ? `topic ${q.topic}` : null,
    q.city ?? null,
    q.country ?? null,
  ].filter(Boolean);
  return parts.length ? `Tech events: ${parts.join(", ")}` : "Tech events";
}

// Short: a deleted event must leave subscribers' calendars soon.
const FEED_CACHE = "public, max-age=60";

/** The listing as iCalendar, for calendar subscriptions (webcal://) and downloads. */
export async function icsFeedRoute(c: Context<AppEnv>): Promise<Response> {
  const events = await feedEvents(c);
  return c.body(calendarOf(events, { origin: siteOrigin(c), name: feedTitle(c) }), 200, {
    "Content-Type": "text/calendar; charset=utf-8",
    "Cache-Control": FEED_CACHE,
  });
}

/** The listing as an Atom feed. */
export async function atomFeedRoute(c: Context<AppEnv>): Promise<Response> {
  const events = await feedEvents(c);
  const query = c.req.query();
  const body = atomFeedOf(events, {
    origin: siteOrigin(c),
    title: feedTitle(c),
    selfPath: withParams("/events.atom", query),
    pagePath: withParams("/", query),
  });
  return c.body(body, 200, {
    "Content-Type": "application/atom+xml; charset=utf-8",
    "Cache-Control": FEED_CACHE,
  });
}
