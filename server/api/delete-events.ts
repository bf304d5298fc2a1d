/** POST /api/v1/events/delete: a contributor deletes events by (external_id, platform). */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env.ts";
import {
  DeleteBatch,
  type DeleteItemError,
  DeleteResult,
} from "../../shared/own-events-schemas.ts";
import { deleteEventsByPair } from "../db/event-deletes.ts";
import { json } from "./responses.ts";
import { mendGroupsAfterDeletes } from "../duplicates/regroup.ts";

export const deleteEventsRoute = createRoute({
  method: "post",
  path: "/api/v1/events/delete",
  operationId: "deleteEvents",
  tags: ["Events"],
  summary: "Delete a batch of 1 to 100 of your events by external_id and platform",
  description: "Validated like a push (400 lists every problem, nothing is deleted); one " +
    "transaction. An item naming no event of yours (none, or another contributor's) is " +
    "reported in `data.errors` as not_found; the others are deleted.",
  security: [{ bearerAuth: ["events:write"] }],
  request: {
    body: {
      required: true,
      description: "a JSON object with an events array of {external_id, platform} items",
      content: { "application/json": { schema: DeleteBatch } },
    },
  },
  responses: { 200: json(DeleteResult, "How many were deleted, and the items that were not.") },
});

/** Deletes the items the caller's contributor owns; reports the others one by one. */
export const deleteEventsHandler: RouteHandler<typeof deleteEventsRoute, AppEnv> = async (c) => {
  const { events } = c.req.valid("json");
  const contributorId = c.get("principal").contributorId!;
  const outcomes = await deleteEventsByPair(c.get("deps").db.sql, contributorId, events);
  if (outcomes.includes(true)) await mendGroupsAfterDeletes(c.get("deps").db.sql);
  const errors: DeleteItemError[] = [];
  events.forEach((item, index) => {
    if (outcomes[index]) return;
    errors.push({
      index,
      external_id: item.external_id,
      platform: item.platform,
      code: "not_found",
      message: `No event of yours has external_id ${JSON.stringify(item.external_id)} on ` +
        `platform ${item.platform}: nothing was deleted for this item.`,
    });
  });
  return c.json({ data: { deleted: outcomes.filter(Boolean).length, errors } }, 200);
};
