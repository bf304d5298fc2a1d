/** DELETE /api/v1/admin/contributors/{id}/events: an operator removes a contributor's events. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { deleteContributorEvents } from "../auth/contributor-decisions.ts";
import { operatorName } from "./admin-key-ref.ts";
import { ContributorRefParams, existingContributorId } from "./admin-contributor-ref.ts";
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
    params: ContributorRefParams,
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
  const contributorId = await existingContributorId(c, c.req.valid("param").id);
  const deleted = await deleteContributorEvents(c.get("deps"), {
    contributorId,
    decidedBy: operatorName(c),
  });
  return c.json({ data: { deleted } }, 200);
};
