/** GET /api/v1/me/searches/{id}: one saved search and its latest deliveries. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { notFound, showSavedSearch } from "../alerts/saved-search-rules.ts";
import { siteOrigin } from "../request-origin.ts";
import { isUuid } from "../uuid.ts";
import { SavedSearchIdParams, SavedSearchView } from "./saved-search-schemas.ts";
import { errorResponse, json } from "./responses.ts";
import { contributorOf, SEARCHES_SECURITY } from "./saved-search-owner.ts";

export const getSavedSearchRoute = createRoute({
  method: "get",
  path: "/api/v1/me/searches/{id}",
  operationId: "getSavedSearch",
  tags: ["Alerts"],
  summary: "Get one of your saved searches",
  description: "With its latest 20 deliveries and their status.",
  security: SEARCHES_SECURITY,
  request: { params: SavedSearchIdParams },
  responses: {
    200: json(z.object({ data: SavedSearchView }), "The saved search."),
    404: errorResponse("not_found", "You have no saved search with this id."),
  },
});

/** Shows it, or 404. */
export const getSavedSearchHandler: RouteHandler<typeof getSavedSearchRoute, AppEnv> = async (
  c,
) => {
  const { id } = c.req.valid("param");
  if (!isUuid(id)) throw notFound(id);
  const data = await showSavedSearch(c.get("deps"), {
    contributorId: contributorOf(c),
    id,
    origin: siteOrigin(c),
  });
  return c.json({ data }, 200);
};
