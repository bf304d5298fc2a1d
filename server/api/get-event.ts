/** GET /api/v1/events/{id}: one event. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { StoredEvent } from "../../shared/api-schemas.ts";
import { getEventById } from "../db/event-reads.ts";
import { AppError } from "../errors.ts";
import { isUuid } from "../uuid.ts";
import { errorResponse, json } from "./responses.ts";

/** The `{id}` of an event in a path. */
export const EventIdParams = z.object({
  id: z.string().meta({ description: "The event's id (a UUID), as the API gave it." }),
});

export const getEventRoute = createRoute({
  method: "get",
  path: "/api/v1/events/{id}",
  operationId: "getEvent",
  tags: ["Events"],
  summary: "Get one event",
  security: [],
  request: { params: EventIdParams },
  responses: {
    200: json(z.object({ data: StoredEvent }), "The event."),
    404: errorResponse("not_found", "No event has this id (or it was deleted)."),
  },
});

/** Answers the event, or 404. */
export const getEventHandler: RouteHandler<typeof getEventRoute, AppEnv> = async (c) => {
  const { id } = c.req.valid("param");
  const event = isUuid(id) ? await getEventById(c.get("deps").db.sql, id) : null;
  if (!event) throw new AppError("not_found", `No event has the id ${JSON.stringify(id)}.`);
  return c.json({ data: event }, 200);
};
