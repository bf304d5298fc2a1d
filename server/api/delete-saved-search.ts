/** DELETE /api/v1/me/searches/{id}: stop and forget a saved search. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env.ts";
import { deleteSavedSearch } from "../db/saved-searches.ts";
import { notFound } from "../alerts/saved-search-rules.ts";
import { isUuid } from "../uuid.ts";
import { SavedSearchIdParams } from "./saved-search-schemas.ts";
import { errorResponse } from "./responses.ts";
import { contributorOf, SEARCHES_SECURITY } from "./saved-search-owner.ts";

export const deleteSavedSearchRoute = createRoute({
  method: "delete",
  path: "/api/v1/me/searches/{id}",
  operationId: "deleteSavedSearch",
  tags: ["Alerts"],
  summary: "Delete one of your saved searches",
  description: "Its undelivered notices go with it, and its feed URLs answer 404.",
  security: SEARCHES_SECURITY,
  request: { params: SavedSearchIdParams },
  responses: {
    204: { description: "Deleted." },
    404: errorResponse("not_found", "You have no saved search with this id."),
  },
});

/** Deletes it, or 404. */
export const deleteSavedSearchHandler: RouteHandler<typeof deleteSavedSearchRoute, AppEnv> = async (
  c,
) => {
  const { id } = c.req.valid("param");
  const deleted = isUuid(id) &&
    await deleteSavedSearch(c.get("deps").db.sql, contributorOf(c), id);
  if (!deleted) throw notFound(id);
  return c.body(null, 204);
};
