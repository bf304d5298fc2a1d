/** GET /cfp: open calls for papers, read with the API's own listing in deadline order. */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { encodeCursor, EventListQuery, filtersOf } from "../../api/event-query.ts";
import { listEvents } from "../../db/event-reads.ts";
import { renderDocument } from "../components/layout.tsx";
import { CFP_PAGE_PARAMS, CfpPage } from "../pages/cfp-page.tsx";
import { withParams } from "../page-query.ts";
import { pageContext } from "../site-context.ts";
import { siteOrigin } from "../../request-origin.ts";

const PAGE_SIZE = 20;

/**
 * The page's filters as the list API reads them. Lenient like every page: a blank field is
 * ignored, and a bad value is dropped and explained instead of failing the page.
 */
function readCfpQuery(raw: Record<string, string>) {
  const params: Record<string, string> = {};
  for (const name of CFP_PAGE_PARAMS) {
    const value = raw[name]?.trim();
    if (value) params[name] = value;
  }
  const notices: string[] = [];
  const parse = () =>
    EventListQuery.safeParse({ ...params, cfp: "open", sort: "cfp_closes_at", cursor: raw.cursor });
  let parsed = parse();
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      notices.push(`Ignored a filter: ${issue.message}.`);
      delete params[String(issue.path[0])];
      if (issue.path[0] === "cursor") delete raw.cursor;
    }
    parsed = parse();
  }
  return { query: parsed.success ? parsed.data : null, params, notices };
}

/** Renders the calls-for-papers page. */
export async function cfpRoute(c: Context<AppEnv>): Promise<Response> {
  const raw = { ...c.req.query() };
  const { query, params, notices } = readCfpQuery(raw);
  const page = query === null
    ? { events: [], next: null }
    : await listEvents(c.get("deps").db.sql, filtersOf(query), {
      limit: PAGE_SIZE,
      after: query.cursor,
      sort: "cfp_closes_at",
    });
  const next = encodeCursor(page.next);
  return c.html(renderDocument(
    <CfpPage
      page={pageContext(c)}
      params={params}
      events={page.events}
      nextHref={next ? withParams("/cfp", { ...params, cursor: next }) : null}
      isLaterPage={query?.cursor !== undefined}
      notices={notices}
      origin={siteOrigin(c)}
      now={new Date()}
    />,
  ));
}
