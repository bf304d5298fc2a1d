/** POST /api/v1/me/searches/{id}/test: send a test notice through the search's channels. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { notFound } from "../alerts/saved-search-rules.ts";
import { getSavedSearch } from "../db/saved-searches.ts";
import { addTestNotice } from "../db/notices.ts";
import { isUuid } from "../uuid.ts";
import { SavedSearchIdParams } from "./saved-search-schemas.ts";
import { errorResponse, json } from "./responses.ts";
import { contributorOf, SEARCHES_SECURITY } from "./saved-search-owner.ts";

export const testSavedSearchRoute = createRoute({
  method: "post",
  path: "/api/v1/me/searches/{id}/test",
  operationId: "testSavedSearch",
  tags: ["Alerts"],
  summary: "Send a test notice",
  description: "A notice of type alert.test goes out through the search's webhook and mail, " +
    "as any other; its outcome shows in GET /api/v1/me/searches/{id}.",
  security: SEARCHES_SECURITY,
  request: { params: SavedSearchIdParams },
  responses: {
    202: json(
      z.object({ data: z.object({ notice_id: z.string() }) }),
      "Queued for delivery; webhooks carry webhook-id msg_<notice_id>.",
    ),
    404: errorResponse("not_found", "You have no saved search with this id."),
  },
});

/** Queues the test notice, or 404. */
export const testSavedSearchHandler: RouteHandler<typeof testSavedSearchRoute, AppEnv> = async (
  c,
) => {
  const { id } = c.req.valid("param");
  const deps = c.get("deps");
  const search = isUuid(id) ? await getSavedSearch(deps.db.sql, contributorOf(c), id) : null;
  if (search === null) throw notFound(id);
  const noticeId = await addTestNotice(deps.db.sql, search.id);
  deps.alerts.wake();
  return c.json({ data: { notice_id: noticeId } }, 202);
};
