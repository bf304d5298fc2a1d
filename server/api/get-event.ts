/** GET /api/v1/events/{id}: one event. */
import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { getEventById } from "../db/event-reads.ts";
import { AppError } from "../errors.ts";
import { isUuid } from "../uuid.ts";

/** Answers the event, or 404. */
export async function getEventHandler(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param("id")!;
  const event = isUuid(id) ? await getEventById(c.get("deps").db.sql, id) : null;
  if (!event) throw new AppError("not_found", `No event has the id ${JSON.stringify(id)}.`);
  return c.json({ data: event });
}
