/** DELETE /api/v1/admin/contributors/{id}/events: an operator removes a contributor's events. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { contributorExists } from "../db/event-deletes.ts";
import { deleteContributorEvents } from "../auth/contributor-decisions.ts";
import { operatorName } from "./admin-key-ref.ts";
import { AppError } from "../errors.ts";
import { isUuid } from "../uuid.ts";
import { errorResponse, json } from "./responses.ts";

export const deleteContributorEventsRoute = createRoute({
  method: "delete",
  path: "/api/v1/admin/contributors/{id}/events",
  operationId: "deleteContributorEvents",
  tags: ["Operators"],
  summary: "Delete every event of a contributor",
  description: "For spam. The contributor's keys stay as they are (revoke them separately). " +
    "Key views carry `contributor_id`.",
  security: [{ bearerAuth: ["admin"] }],
  request: {
    params: z.object({
      id: z.string().meta({ description: "The contributor's id (contributor_id of its keys)." }),
    }),
  },
  responses: {
    200: json(
      z.object({ data: z.object({ deleted: z.number().int() }) }),
      "How many events were deleted.",
    ),
    404: errorResponse("not_found", "No contributor has this id."),
  },
});

/** Deletes all of the contributor's events in one statement. */
export const deleteContributorEventsHandler: RouteHandler<
  typeof deleteContributorEventsRoute,
  AppEnv
> = async (c) => {
  const { id } = c.req.valid("param");
  const sql = c.get("deps").db.sql;
  if (!isUuid(id) || !await contributorExists(sql, id)) {
    throw new AppError(
      "not_found",
      `No contributor has the id ${JSON.stringify(id)}: take contributor_id from a key ` +
        "(GET /api/v1/admin/keys).",
    );
  }
  const deleted = await deleteContributorEvents(c.get("deps"), {
    contributorId: id,
    decidedBy: operatorName(c),
  });
  return c.json({ data: { deleted } }, 200);
};
