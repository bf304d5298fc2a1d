/** POST /api/v1/me/searches: save a search that notifies. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { createSavedSearch } from "../alerts/saved-search-rules.ts";
import { siteOrigin } from "../request-origin.ts";
import { NewSavedSearch, SavedSearchView } from "./saved-search-schemas.ts";
import { errorResponseOf, json } from "./responses.ts";
import { contributorOf, SEARCHES_SECURITY } from "./saved-search-owner.ts";

export const createSavedSearchRoute = createRoute({
  method: "post",
  path: "/api/v1/me/searches",
  operationId: "createSavedSearch",
  tags: ["Alerts"],
  summary: "Save a search that notifies",
  description: "Events that match it from now on are told of by webhook, mail and its private " +
    "feeds (docs/alerts.md). `webhook_secret` is in this answer only: keep it.",
  security: SEARCHES_SECURITY,
  request: {
    body: {
      required: true,
      description: "a JSON object with name, and q, filters, webhook_url or email",
      content: { "application/json": { schema: NewSavedSearch } },
    },
  },
  responses: {
    201: json(z.object({ data: SavedSearchView }), "The saved search, with its secret."),
    409: errorResponseOf(
      ["saved_searches_limit", "email_not_verified"],
      "saved_searches_limit: the account holds SAVED_SEARCHES_MAX searches already; " +
        "email_not_verified: mail was asked for without a confirmed address.",
    ),
  },
});

/** Saves the search for the key's contributor. */
export const createSavedSearchHandler: RouteHandler<typeof createSavedSearchRoute, AppEnv> = async (
  c,
) => {
  const body = c.req.valid("json");
  const data = await createSavedSearch(c.get("deps"), {
    contributorId: contributorOf(c),
    request: {
      name: body.name,
      q: body.q ?? null,
      filters: body.filters ?? { given: {}, resolved: {} },
      webhook_url: body.webhook_url ?? null,
      email: body.email,
    },
    origin: siteOrigin(c),
  });
  return c.json({ data }, 201);
};
