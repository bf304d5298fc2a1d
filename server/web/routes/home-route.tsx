/** GET /: lists upcoming events, or searches them, with the API's own list and search code. */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { encodeCursor } from "../../api/event-query.ts";
import { listEvents } from "../../db/event-reads.ts";
import { searchEvents } from "../../search/search-events.ts";
import type { Interpreted } from "../../search/interpret-query.ts";
import { listEventsFairly } from "../../events/fair-listing.ts";
import { decodeFairCursor, encodeFairCursor } from "../../events/fair-cursor.ts";
import { renderDocument } from "../components/layout.tsx";
import { HomePage, type HomeResults } from "../pages/home-page.tsx";
import {
  feedParams,
  pageFilters,
  type PageQuery,
  readPageQuery,
  withParams,
} from "../page-query.ts";
import { pageContext } from "../site-context.ts";
import { siteOrigin } from "../../request-origin.ts";

const PAGE_SIZE = 20;
const MAX_SEARCH_RESULTS = 100;

/**
 * The listing without words: the fair front page, paged by `after` (its own cursor). A `cursor`
 * of the list API still pages in the API's plain order.
 */
async function listing(c: Context<AppEnv>, query: PageQuery, params: Record<string, string>) {
  const sql = c.get("deps").db.sql;
  const { q: _q, ...filters } = pageFilters(query);
  const rawAfter = c.req.query("after");
  const after = rawAfter ? decodeFairCursor(rawAfter) : null;
  const notices = rawAfter && !after
    ? ["Ignored a filter: after is not a page link this site made; showing the first page."]
    : [];
  if (query.cursor !== undefined) {
    const page = await listEvents(sql, filters, { limit: PAGE_SIZE, after: query.cursor });
    const next = encodeCursor(page.next);
    return {
      events: page.events,
      nextHref: next ? withParams("/", { ...params, cursor: next }) : null,
      isLaterPage: true,
      kind: "list" as const,
      notices,
    };
  }
  const page = await listEventsFairly(sql, filters, {
    limit: PAGE_SIZE,
    after: after ?? undefined,
  });
  return {
    events: page.events,
    nextHref: page.next ? withParams("/", { ...params, after: encodeFairCursor(page.next) }) : null,
    isLaterPage: after !== null,
    kind: "list" as const,
    notices,
  };
}

/** A search grows by asking for more results at once: ranked results have no cursor. */
async function searching(
  c: Context<AppEnv>,
  query: PageQuery & { q: string },
  options: { params: Record<string, string>; aiAvailable: boolean },
): Promise<HomeResults> {
  const deps = c.get("deps");
  const limit = Math.min(MAX_SEARCH_RESULTS, Math.max(PAGE_SIZE, query.limit));
  const { q, ...rest } = pageFilters(query);
  const result = await searchEvents(deps.db.sql, deps.ai, {
    q: q!,
    mode: options.aiAvailable ? query.mode : "text",
    filters: rest,
    limit,
    interpret: query.interpret !== "off",
  });
  const notices = [...result.notices];
  const more = result.hits.length === limit && limit < MAX_SEARCH_RESULTS;
  return {
    events: result.hits.map((hit) => hit.event),
    nextHref: more
      ? withParams("/", { ...options.params, limit: String(limit + PAGE_SIZE) })
      : null,
    isLaterPage: false,
    kind: "search",
    notices,
    scope: scopeOf(result, options.params),
  };
}

/** Renders the home page. */
export async function homeRoute(c: Context<AppEnv>): Promise<Response> {
  const { query, params, problems } = readPageQuery(c.req.query());
  const aiAvailable = (await c.get("deps").ai.availability.status()).available;
  const results: HomeResults = query.q === undefined
    ? await listing(c, query, params)
    : await searching(c, { ...query, q: query.q }, { params, aiAvailable });
  results.notices.unshift(...problems.map((p) => `Ignored a filter: ${p}.`));
  return c.html(renderDocument(
    <HomePage
      page={pageContext(c)}
      params={params}
      results={results}
      aiAvailable={aiAvailable}
      origin={siteOrigin(c)}
      now={new Date()}
    />,
  ));
}

/**
 * "Showing events in Berlin", and the same search with the words read as written: the words left
 * ("rust"), or every event where they name only a kind of event ("online events").
 */
function scopeOf(
  { interpreted, searched, listsAll }: {
    interpreted: Interpreted;
    searched: string;
    listsAll: boolean;
  },
  params: Record<string, string>,
): HomeResults["scope"] {
  const parts = [
    interpreted.attendance === "online" ? "online" : null,
    interpreted.attendance === "in_person" ? "in person" : null,
    interpreted.city ? `in ${interpreted.city}` : null,
    interpreted.country ? `in ${interpreted.country}` : null,
    interpreted.when ? interpreted.when.replace("_", " ") : null,
    interpreted.cfp === "open" ? "with an open call for papers" : null,
  ].filter((p) => p !== null);
  if (parts.length === 0) return undefined;
  // A period is not kept: a feed or a saved search of "this weekend" would stop at that weekend.
  const readParams = {
    ...feedParams(params),
    q: listsAll ? undefined : searched,
    city: interpreted.city,
    country: interpreted.country,
    attendance: interpreted.attendance,
    cfp: interpreted.cfp,
  };
  return {
    readParams,
    text: `Showing events ${parts.join(", ")}`,
    everywhereHref: listsAll
      ? withParams("/", { ...params, q: undefined, interpret: undefined, mode: undefined })
      : withParams("/", { ...params, q: searched, interpret: "off" }),
  };
}
