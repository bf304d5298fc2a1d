/** GET /api/v1/me/searches: the key's contributor's saved searches. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { listSavedSearches } from "../db/saved-searches.ts";
import { linkBase, savedSearchView } from "../alerts/saved-search-rules.ts";
import { siteOrigin } from "../request-origin.ts";
import { SavedSearchView } from "./saved-search-schemas.ts";
import { json } from "./responses.ts";
import { contributorOf, SEARCHES_SECURITY } from "./saved-search-owner.ts";

export const listSavedSearchesRoute = createRoute({
  method: "get",
  path: "/api/v1/me/searches",
  operationId: "listSavedSearches",
  tags: ["Alerts"],
  summary: "List your saved searches",
  description: "Oldest first; at most SAVED_SEARCHES_MAX, so on one page.",
  security: SEARCHES_SECURITY,
  responses: { 200: json(z.object({ data: z.array(SavedSearchView) }), "Your saved searches.") },
});

/** Lists them. */
export const listSavedSearchesHandler: RouteHandler<typeof listSavedSearchesRoute, AppEnv> = async (
  c,
) => {
  const deps = c.get("deps");
  const records = await listSavedSearches(deps.db.sql, contributorOf(c));
  const base = linkBase(deps, siteOrigin(c));
  return c.json({ data: records.map((r) => savedSearchView(r, { base })) }, 200);
};
