/** POST /api/v1/admin/contributors/{id}/clean-up: one action against a spamming contributor. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { cleanUpContributor } from "../auth/contributor-decisions.ts";
import { errorResponse, json } from "./responses.ts";
import { operatorName } from "./admin-key-ref.ts";
import { ContributorRefParams, existingContributorId } from "./admin-contributor-ref.ts";

export const cleanUpContributorRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/contributors/{id}/clean-up",
  operationId: "cleanUpContributor",
  tags: ["Operators"],
  summary: "Clean up a contributor: revoke its keys, delete its events, block its sign-in",
  description: "In one transaction: every key of the contributor is revoked (401 from its next " +
    "request), every event deleted (the hosts of their source URLs become a review signal " +
    "against other contributors), and its site account blocked from signing in and signed " +
    "out. Recorded in the audit log. Cleaning up twice finds nothing more to do.",
  security: [{ bearerAuth: ["admin"] }],
  request: {
    params: ContributorRefParams,
  },
  responses: {
    200: json(
      z.object({
        data: z.object({
          keys_revoked: z.number().int(),
          events_deleted: z.number().int(),
          sessions_ended: z.number().int(),
        }),
      }),
      "What the clean-up changed.",
    ),
    404: errorResponse("not_found", "No contributor has this id."),
  },
});

/** Cleans the contributor up and answers the counts. */
export const cleanUpContributorHandler: RouteHandler<typeof cleanUpContributorRoute, AppEnv> =
  async (c) => {
    const contributorId = await existingContributorId(c, c.req.valid("param").id);
    const data = await cleanUpContributor(c.get("deps"), {
      contributorId,
      decidedBy: operatorName(c),
    });
    return c.json({ data }, 200);
  };
