/** POST /api/v1/events: a contributor's batch of 1 to 100 events. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env.ts";
import { EventBatch } from "../../shared/event-schema.ts";
import { BatchResult } from "../../shared/api-schemas.ts";
import { ingestBatch } from "../events/ingest-batch.ts";
import { errorResponse, json } from "./responses.ts";

export const postEventsRoute = createRoute({
  method: "post",
  path: "/api/v1/events",
  operationId: "pushEvents",
  tags: ["Events"],
  summary: "Push a batch of 1 to 100 events",
  description: "Upserts by (external_id, platform). Validation is all or nothing: one invalid " +
    "event and the answer is 400 listing every problem, with nothing stored. An accepted batch " +
    "is one transaction. Pairs owned by another contributor are reported in `data.errors` and " +
    "left alone. A contributor none of whose keys an operator has trusted or made (keys made " +
    "on the dashboard) may store at most UNREVIEWED_MAX_UPCOMING_EVENTS upcoming events " +
    "(default 1,000): a batch that would pass it is refused whole with 409 " +
    "`review_budget_exceeded`, until an operator trusts one of the contributor's keys.",
  security: [{ bearerAuth: ["events:write"] }],
  request: {
    body: {
      required: true,
      description: "a JSON object with an events array of 1 to 100 events",
      content: { "application/json": { schema: EventBatch } },
    },
  },
  responses: {
    200: json(BatchResult, "Counts of inserted and updated events, and the items not applied."),
    409: errorResponse(
      "review_budget_exceeded",
      "Nothing was stored: the batch would take an unreviewed contributor past its budget of " +
        "upcoming events. The message says the limit and how many are stored; an operator's " +
        "review (trusting one of its keys) lifts it.",
    ),
  },
});

/** Upserts the validated batch; answers the insert/update counts. */
export const postEvents: RouteHandler<typeof postEventsRoute, AppEnv> = async (c) => {
  const { events } = c.req.valid("json");
  const outcome = await ingestBatch(c.get("deps"), c.get("principal"), events);
  return c.json({
    data: { inserted: outcome.inserted, updated: outcome.updated, errors: outcome.errors },
  }, 200);
};
