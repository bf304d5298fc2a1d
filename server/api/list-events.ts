/** GET /api/v1/events: upcoming events, soonest first, filtered and paginated. */
import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { listEvents } from "../db/event-reads.ts";
import { encodeCursor, EventListQuery, filtersOf, parseQuery } from "./event-query.ts";

/** Lists a page of events and the cursor of the next page. */
export async function listEventsHandler(c: Context<AppEnv>): Promise<Response> {
  const query = parseQuery(EventListQuery, c.req.query());
  const page = await listEvents(c.get("deps").db.sql, filtersOf(query), {
    limit: query.limit,
    after: query.cursor,
  });
  return c.json({ data: page.events, next_cursor: encodeCursor(page.next) });
}
