/** GET /events/{id} and its .ics: one event, read with the API's own code. */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import { getEventById } from "../../db/event-reads.ts";
import { similarEvents } from "../../search/similar-events.ts";
import { AppError } from "../../errors.ts";
import { isUuid } from "../../uuid.ts";
import { renderDocument } from "../components/layout.tsx";
import { EventPage } from "../pages/event-page.tsx";
import { pageContext } from "../site-context.ts";
import { siteOrigin } from "../../request-origin.ts";
import { calendarOf } from "../feeds/ics-writer.ts";

const SIMILAR = 4;

async function eventFromPath(c: Context<AppEnv>): Promise<StoredEvent> {
  const id = c.req.param("id") ?? "";
  const event = isUuid(id) ? await getEventById(c.get("deps").db.sql, id) : null;
  if (!event) {
    throw new AppError("not_found", "There is no such event. It may have been deleted.");
  }
  return event;
}

/** Renders an event's page. */
export async function eventRoute(c: Context<AppEnv>): Promise<Response> {
  const event = await eventFromPath(c);
  const deps = c.get("deps");
  const similar = await similarEvents(deps.db.sql, deps.ai, { event, limit: SIMILAR });
  const pageUrl = `${siteOrigin(c)}/events/${event.id}`;
  return c.html(renderDocument(
    <EventPage page={pageContext(c)} event={event} similar={similar} pageUrl={pageUrl} />,
  ));
}

/** One event as an iCalendar file, for "add to calendar". */
export async function eventIcsRoute(c: Context<AppEnv>): Promise<Response> {
  const event = await eventFromPath(c);
  const origin = siteOrigin(c);
  const body = calendarOf([event], { origin, name: event.title });
  return c.body(body, 200, {
    "Content-Type": "text/calendar; charset=utf-8",
    "Content-Disposition": 'attachment; filename="event.ics"',
    "Cache-Control": "public, max-age=60",
  });
}
