/** GET /api/v1/search: text, semantic or hybrid search with the list endpoint's filters. */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { StoredEvent } from "../../shared/api-schemas.ts";
import { eventQueryShape, filtersOf, NOT_BLANK } from "./event-query.ts";
import { radiusNeedsNear } from "./near-query.ts";
import { SEARCH_MODES, searchEvents } from "../search/search-events.ts";
import { errorResponse, json } from "./responses.ts";
import { hasNul, nulMessage } from "../../shared/storable-text.ts";

const { cursor: _cursor, q: _q, ...filterShape } = eventQueryShape;

const SearchQuery = z.strictObject({
  ...filterShape,
  q: z.string({ error: () => "q is required: the words to search for" }).trim()
    .min(1, { message: "q must not be empty" })
    .max(500, { message: "q may be at most 500 characters" })
    .refine((s) => !hasNul(s), { message: nulMessage("q") })
    .meta({ description: "What to look for, in plain words.", pattern: NOT_BLANK }),
  mode: z.enum(SEARCH_MODES, {
    error: () => `mode must be one of ${SEARCH_MODES.join(", ")}`,
  }).default("hybrid").meta({
    description: "text: full-text rank; semantic: by meaning, only events in AI search; " +
      "hybrid: both, fused.",
  }),
  interpret: z.enum(["true", "false", "on", "off"], {
    error: () => "interpret must be true or false",
  }).default("true").meta({
    description: "true: a place, a way of attending or a time named in q where it reads as a " +
      'filter ("rust meetups in Berlin next month") becomes one, reported in `interpreted`, ' +
      "unless that filter is given explicitly; false: q is searched as written. on and off " +
      "are accepted as true and false.",
  }),
}).superRefine(radiusNeedsNear);

const Interpreted = z.object({
  city: z.string().optional(),
  country: z.string().optional(),
  attendance: z.enum(["online", "in_person"]).optional(),
  when: z.string().optional().meta({ description: "A period named in q, such as next_month." }),
  from: z.string().optional().meta({ description: "Start of that period (UTC)." }),
  to: z.string().optional().meta({ description: "End of that period, inclusive (UTC)." }),
  ranked: z.object({
    city: z.string().optional(),
    country: z.string().optional(),
    attendance: z.enum(["online", "in_person"]).optional(),
    when: z.string().optional(),
  }).optional().meta({
    description: "Named in q but not read as a filter (a bare place, a phrase such as " +
      '"online safety"): those words stay in the query and only rank.',
  }),
  cfp: z.enum(["open"]).optional().meta({
    description: 'Words such as "open cfp" or "call for papers", read as cfp=open.',
  }),
}).meta({
  id: "SearchInterpretation",
  description: "What q was read as besides its subject, applied as filters (and in `ranked`, " +
    "what was only ranked); empty when nothing.",
});

const SearchResults = z.object({
  data: z.array(z.object({
    event: StoredEvent,
    score: z.number().meta({ description: "Higher is better; comparable within one answer." }),
    ranks: z.object({
      text: z.number().int().nullable(),
      semantic: z.number().int().nullable(),
    }).optional().meta({
      description: "Hybrid only: the event's 1-based place in each ranking (null: absent).",
    }),
  })).meta({ description: "Results, best first." }),
  mode: z.enum(SEARCH_MODES),
  interpreted: Interpreted,
  degraded: z.string().optional().meta({
    description: "Set when hybrid search fell back to text alone, saying why.",
  }),
}).meta({ id: "SearchResults" });

export const searchRoute = createRoute({
  method: "get",
  path: "/api/v1/search",
  operationId: "searchEvents",
  tags: ["Search"],
  summary: "Search events by words, by meaning, or both",
  description: "Takes the filters of GET /api/v1/events. `semantic` (and the semantic half of " +
    "`hybrid`) only ever returns events in AI search. Where AI search is unavailable, " +
    "`semantic` answers 503 saying why and `hybrid` answers text results with `degraded`.",
  security: [],
  request: { query: SearchQuery },
  responses: {
    200: json(SearchResults, "Results, best first."),
    503: errorResponse(
      "service_unavailable",
      "Semantic search asked for where AI search is unavailable (the message says why), or " +
        "the database is unavailable for a moment (then Retry-After says when to retry).",
    ),
  },
});

/** Answers `{data: [{event, score}], mode}`; hybrid results also carry each ranking's place. */
export const searchHandler: RouteHandler<typeof searchRoute, AppEnv> = async (c) => {
  const { q, mode, limit, interpret, ...rest } = c.req.valid("query");
  const deps = c.get("deps");
  const result = await searchEvents(deps.db.sql, deps.ai, {
    q,
    mode,
    limit,
    filters: filtersOf({ ...rest, limit, cursor: undefined }),
    interpret: interpret === "true" || interpret === "on",
    semanticUnavailable: "error",
  });
  return c.json({
    data: result.hits,
    mode,
    interpreted: result.interpreted,
    ...(result.mode === mode ? {} : { degraded: result.notices.join(" ") }),
  }, 200);
};
