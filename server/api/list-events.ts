/** GET /api/v1/events: upcoming events, soonest first, filtered and paginated. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env.ts";
import { EventPage } from "../../shared/api-schemas.ts";
import { listEvents } from "../db/event-reads.ts";
import { encodeCursor, EventListQuery, filtersOf, listOrderOf } from "./event-query.ts";
import { json } from "./responses.ts";

export const listEventsRoute = createRoute({
  method: "get",
  path: "/api/v1/events",
  operationId: "listEvents",
  tags: ["Events"],
  summary: "List events",
  description: "Upcoming events (not yet ended), soonest first; with `from`, past events too. " +
    "With `q`, events matching the words. With `sort=cfp_closes_at` (the default with " +
    "`cfp=open`), events with a call for papers, soonest deadline first. Follow `next_cursor` " +
    "for the next page.",
  security: [],
  request: { query: EventListQuery },
  responses: { 200: json(EventPage, "A page of events.") },
});

/** Lists a page of events and the cursor of the next page. */
export const listEventsHandler: RouteHandler<typeof listEventsRoute, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await listEvents(c.get("deps").db.sql, filtersOf(query), {
    limit: query.limit,
    after: query.cursor,
    sort: listOrderOf(query),
  });
  return c.json({ data: page.events, next_cursor: encodeCursor(page.next) }, 200);
};
