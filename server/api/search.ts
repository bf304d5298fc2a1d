/** GET /api/v1/search: text, semantic or hybrid search with the list endpoint's filters. */
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { eventQueryShape, filtersOf, parseQuery } from "./event-query.ts";
import { radiusNeedsNear } from "./near-query.ts";
import { SEARCH_MODES, searchEvents } from "../search/search-events.ts";

const { cursor: _cursor, q: _q, ...filterShape } = eventQueryShape;

const SearchQuery = z.strictObject({
  ...filterShape,
  q: z.string({ error: () => "q is required: the words to search for" }).trim()
    .min(1, { message: "q must not be empty" })
    .max(500, { message: "q may be at most 500 characters" })
    // PostgreSQL text cannot hold NUL: without this check the query fails with a 500.
    .refine((s) => !s.includes("\u0000"), { message: "q must not contain NUL (%00)" }),
  mode: z.enum(SEARCH_MODES, {
    error: () => `mode must be one of ${SEARCH_MODES.join(", ")}`,
  }).default("hybrid"),
}).superRefine(radiusNeedsNear);

/** Answers `{data: [{event, score}], mode}`; hybrid results also carry each ranking's place. */
export async function searchHandler(c: Context<AppEnv>): Promise<Response> {
  const query = parseQuery(SearchQuery, c.req.query());
  const { q, mode, limit, ...rest } = query;
  const deps = c.get("deps");
  const result = await searchEvents(deps.db.sql, deps.ai, {
    q,
    mode,
    limit,
    filters: filtersOf({ ...rest, limit, cursor: undefined }),
  });
  return c.json({
    data: result.hits,
    mode,
    ...(result.degraded ? { degraded: result.degraded } : {}),
  });
}
