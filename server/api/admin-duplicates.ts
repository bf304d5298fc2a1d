/**
 * Operators decide doubtful duplicates: POST /api/v1/admin/events/{id}/same-as joins two listings
 * into one group, .../not-same-as keeps them apart. Decisions outlast re-pushes and detection.
 */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { StoredEvent } from "../../shared/api-schemas.ts";
import { getEventById } from "../db/event-reads.ts";
import { decideSameEvent } from "../duplicates/operator-decisions.ts";
import { AppError } from "../errors.ts";
import { EventIdParams } from "./get-event.ts";
import { errorResponse, json } from "./responses.ts";

const OtherListing = z.strictObject({
  other_id: z.string({ error: () => "other_id must be the id (a UUID) of another event" })
    .meta({ format: "uuid", description: "The other listing's id." }),
}).meta({ id: "OtherListing" });

const decision = (same: boolean) =>
  createRoute({
    method: "post",
    path: `/api/v1/admin/events/{id}/${same ? "same-as" : "not-same-as"}`,
    operationId: same ? "markSameEvent" : "markNotSameEvent",
    tags: ["Operators"],
    summary: same
      ? "Join two listings: they are the same real-world event"
      : "Split two listings: they are different events",
    description: (same
      ? "The two listings (and the groups they were in) become one group, unless an operator " +
        "said earlier that some listing of one is not the same as some listing of the other."
      : "The two listings never share a group again, whatever detection finds.") +
      " The decision outlasts re-pushes and re-detection; it goes when either event is deleted.",
    security: [{ bearerAuth: ["admin"] }],
    request: {
      params: EventIdParams,
      body: {
        required: true,
        description: "a JSON object naming the other listing",
        content: { "application/json": { schema: OtherListing } },
      },
    },
    responses: {
      200: json(z.object({ data: StoredEvent }), "The event, its `duplicates` as now grouped."),
      404: errorResponse("not_found", "No event has one of the ids."),
    },
  });

export const sameEventRoute = decision(true);
export const notSameEventRoute = decision(false);

function decidedBy(c: Context<AppEnv>): string {
  const principal = c.get("principal");
  return principal.keyId === null ? "ADMIN_API_KEY" : principal.prefix;
}

async function decide(c: Context<AppEnv>, o: { id: string; otherId: string; same: boolean }) {
  const sql = c.get("deps").db.sql;
  await decideSameEvent(sql, { ...o, decidedBy: decidedBy(c) });
  const event = await getEventById(sql, o.id);
  if (!event) throw new AppError("not_found", `No event has the id ${JSON.stringify(o.id)}.`);
  return c.json({ data: event }, 200);
}

/** Joins the two listings. */
export const sameEventHandler: RouteHandler<typeof sameEventRoute, AppEnv> = (c) =>
  decide(c, {
    id: c.req.valid("param").id,
    otherId: c.req.valid("json").other_id,
    same: true,
  });

/** Keeps the two listings apart. */
export const notSameEventHandler: RouteHandler<typeof notSameEventRoute, AppEnv> = (c) =>
  decide(c, {
    id: c.req.valid("param").id,
    otherId: c.req.valid("json").other_id,
    same: false,
  });
