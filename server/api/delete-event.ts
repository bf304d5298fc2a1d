/** DELETE /api/v1/events/{id}: the owning contributor's keys, or an operator, delete an event. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env.ts";
import { deleteEvent } from "../db/event-deletes.ts";
import { AppError } from "../errors.ts";
import { isUuid } from "../uuid.ts";
import { EventIdParams } from "./get-event.ts";
import { errorResponse } from "./responses.ts";
import { mendGroupsAfterDeletes } from "../duplicates/regroup.ts";

export const deleteEventRoute = createRoute({
  method: "delete",
  path: "/api/v1/events/{id}",
  operationId: "deleteEvent",
  tags: ["Events"],
  summary: "Delete one event",
  description: "A key with events:write deletes its contributor's events; an operator (admin) " +
    "any event. The event leaves listings, search, AI search and feeds at once; pushing the " +
    "same (external_id, platform) later creates a new event.",
  security: [{ bearerAuth: ["events:write"] }, { bearerAuth: ["admin"] }],
  request: { params: EventIdParams },
  responses: {
    204: { description: "Deleted." },
    404: errorResponse(
      "not_found",
      "No such event, or it belongs to another contributor (which is not disclosed).",
    ),
  },
});

/** Deletes the event if the caller may; anything else is a 404, so nothing leaks. */
export const deleteEventHandler: RouteHandler<typeof deleteEventRoute, AppEnv> = async (c) => {
  const { id } = c.req.valid("param");
  const principal = c.get("principal");
  const owner = {
    contributorId: principal.scopes.includes("admin") ? null : principal.contributorId,
  };
  const deleted = isUuid(id) && await deleteEvent(c.get("deps").db.sql, id, owner);
  if (deleted) await mendGroupsAfterDeletes(c.get("deps").db.sql);
  if (!deleted) {
    throw new AppError(
      "not_found",
      `No event of yours has the id ${JSON.stringify(id)}: it was deleted already, or the id is ` +
        "wrong. GET /api/v1/me/events lists your events.",
    );
  }
  return c.body(null, 204);
};
