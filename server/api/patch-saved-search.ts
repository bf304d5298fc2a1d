/** PATCH /api/v1/me/searches/{id}: change the fields named, pause, or revoke the feed URLs. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { notFound, patchSavedSearch } from "../alerts/saved-search-rules.ts";
import { siteOrigin } from "../request-origin.ts";
import { isUuid } from "../uuid.ts";
import {
  SavedFilters,
  SavedSearchIdParams,
  SavedSearchPatch,
  SavedSearchView,
} from "./saved-search-schemas.ts";
import { errorResponse, json } from "./responses.ts";
import { contributorOf, SEARCHES_SECURITY } from "./saved-search-owner.ts";

export const patchSavedSearchRoute = createRoute({
  method: "patch",
  path: "/api/v1/me/searches/{id}",
  operationId: "patchSavedSearch",
  tags: ["Alerts"],
  summary: "Change one of your saved searches",
  description: "Only the fields named change; `filters` is replaced whole. A webhook_url " +
    "given where there was none comes with a new `webhook_secret`, in this answer only.",
  security: SEARCHES_SECURITY,
  request: {
    params: SavedSearchIdParams,
    body: {
      required: true,
      description: "a JSON object with the fields to change",
      content: { "application/json": { schema: SavedSearchPatch } },
    },
  },
  responses: {
    200: json(z.object({ data: SavedSearchView }), "The saved search as it is now."),
    404: errorResponse("not_found", "You have no saved search with this id."),
    409: errorResponse("email_not_verified", "Mail was asked for without a confirmed address."),
  },
});

/** Applies the change, or 404. */
export const patchSavedSearchHandler: RouteHandler<typeof patchSavedSearchRoute, AppEnv> = async (
  c,
) => {
  const { id } = c.req.valid("param");
  if (!isUuid(id)) throw notFound(id);
  const data = await patchSavedSearch(c.get("deps"), {
    contributorId: contributorOf(c),
    id,
    patch: c.req.valid("json"),
    origin: siteOrigin(c),
    // Filters saved before were valid then; parsed again as the listing reads them now.
    reparse: (filters) => SavedFilters.parse(filters),
  });
  return c.json({ data }, 200);
};
