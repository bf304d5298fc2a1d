/** GET /api/v1/me/events: the events the key's contributor owns, for `events push --sync`. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { PLATFORMS } from "../../shared/event-schema.ts";
import { OwnEventPage } from "../../shared/own-events-schemas.ts";
import { listOwnEvents, type OwnEventsCursor } from "../db/own-events.ts";
import { pageSize, text } from "./event-query.ts";
import { json } from "./responses.ts";
import { hasNul } from "../../shared/storable-text.ts";

import { decodeJsonToken, encodeJsonToken } from "../base64url.ts";

/** The opaque `next_cursor`: the last pair of the page. */
function encodeOwnCursor(cursor: OwnEventsCursor | null): string | null {
  return cursor === null ? null : encodeJsonToken([cursor.platform, cursor.external_id]);
}

const cursor = z.string().optional().transform((v, ctx): OwnEventsCursor | undefined => {
  if (v === undefined) return undefined;
  try {
    const [platform, externalId] = decodeJsonToken(v) as [string, unknown];
    // A forged cursor must not reach SQL with a value PostgreSQL text cannot hold.
    if (
      (PLATFORMS as readonly string[]).includes(platform) && typeof externalId === "string" &&
      externalId.length <= 500 && !hasNul(externalId)
    ) {
      return { platform, external_id: externalId };
    }
  } catch {
    // Reported below.
  }
  ctx.addIssue({ code: "custom", message: "cursor is not one this API issued: use next_cursor" });
  return z.NEVER;
}).meta({ description: "The next_cursor of the previous page." });

const MyEventsQuery = z.strictObject({
  platform: z.enum(PLATFORMS, {
    error: () => `platform must be one of ${PLATFORMS.join(", ")}`,
  }).optional().meta({ description: "Only events of this platform." }),
  external_id_prefix: text("external_id_prefix").meta({
    description: "Only events whose external_id starts with this text.",
  }),
  limit: pageSize({ max: 1000, fallback: 100 }),
  cursor,
});

export const myEventsRoute = createRoute({
  method: "get",
  path: "/api/v1/me/events",
  operationId: "listMyEvents",
  tags: ["Events"],
  summary: "List the events your key's contributor owns",
  description: "Past events too, ordered by platform, then external_id (byte order). With " +
    "a push of a whole feed, this tells which events the feed no longer holds.",
  security: [{ bearerAuth: ["events:write"] }],
  request: { query: MyEventsQuery },
  responses: { 200: json(OwnEventPage, "A page of your events.") },
});

/** Lists a page of the caller's contributor's events. */
export const myEventsHandler: RouteHandler<typeof myEventsRoute, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await listOwnEvents(c.get("deps").db.sql, c.get("principal").contributorId!, {
    platform: query.platform,
    externalIdPrefix: query.external_id_prefix,
    limit: query.limit,
    after: query.cursor,
  });
  return c.json({ data: page.events, next_cursor: encodeOwnCursor(page.next) }, 200);
};
