/**
 * GET /cfp.ics and /cfp.atom: open calls for papers, soonest deadline first, taking the query
 * parameters of GET /api/v1/events (parsed by the same schema; `cfp` defaults to open).
 */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { EventListQuery, filtersOf, listOrderOf, parseQuery } from "../../api/event-query.ts";
import { listEvents } from "../../db/event-reads.ts";
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import { cfpAtomFeedOf, cfpCalendarOf } from "../feeds/cfp-feed-writers.ts";
import { siteOrigin } from "../../request-origin.ts";
import { withParams } from "../page-query.ts";

const FEED_DEFAULT_LIMIT = "100";
// Short: a CFP removed or closed early must leave subscribers' calendars soon.
const FEED_CACHE = "public, max-age=60";

/** The CFPs the feed lists, as the API lists them with these parameters. */
export async function cfpFeedEvents(c: Context<AppEnv>): Promise<StoredEvent[]> {
  const query = parseQuery(EventListQuery, {
    limit: FEED_DEFAULT_LIMIT,
    cfp: "open",
    ...c.req.query(),
  });
  const page = await listEvents(c.get("deps").db.sql, filtersOf(query), {
    limit: query.limit,
    after: query.cursor,
    sort: listOrderOf(query),
  });
  return page.events;
}

/** The feeds' title: what they list. */
function cfpFeedTitle(c: Context): string {
  const q = c.req.query();
  const parts = [q.q ? `“${q.q}”` : null, q.topic ? `topic ${q.topic}` : null, q.city, q.country]
    .filter(Boolean);
  return parts.length ? `Calls for papers: ${parts.join(", ")}` : "Calls for papers";
}

/** The open CFPs' deadlines as iCalendar. */
export async function cfpIcsFeedRoute(c: Context<AppEnv>): Promise<Response> {
  const events = await cfpFeedEvents(c);
  return c.body(cfpCalendarOf(events, { origin: siteOrigin(c), name: cfpFeedTitle(c) }), 200, {
    "Content-Type": "text/calendar; charset=utf-8",
    "Cache-Control": FEED_CACHE,
  });
}

/** The open CFPs as an Atom feed. */
export async function cfpAtomFeedRoute(c: Context<AppEnv>): Promise<Response> {
  const events = await cfpFeedEvents(c);
  const query = c.req.query();
  const body = cfpAtomFeedOf(events, {
    origin: siteOrigin(c),
    title: cfpFeedTitle(c),
    selfPath: withParams("/cfp.atom", query),
    pagePath: withParams("/cfp", query),
  });
  return c.body(body, 200, {
    "Content-Type": "application/atom+xml; charset=utf-8",
    "Cache-Control": FEED_CACHE,
  });
}
