/**
 * The home page's query string: the list API's parameters (same names, same rules, from
 * server/api/event-query.ts) plus the search API's `mode`. Pages are lenient where the API is
 * strict: blank fields are ignored (forms send them), unknown parameters too, and a bad value is
 * dropped and explained on the page instead of failing it.
 */
import { z } from "zod";
import { eventQueryShape, filtersOf } from "../api/event-query.ts";
import type { EventFilters } from "../db/event-filters.ts";
import { SEARCH_MODES } from "../search/search-events.ts";

const PageQuery = z.object({
  ...eventQueryShape,
  mode: z.enum(SEARCH_MODES, {
    error: () => `mode must be one of ${SEARCH_MODES.join(", ")}`,
  }).optional(),
  // "off": the words are searched as written, no place, attendance or time read from them.
  interpret: z.enum(["off"], { error: () => 'interpret can only be "off"' }).optional(),
});

export type PageQuery = z.output<typeof PageQuery>;

/** The parameters a page keeps in its links: names of the shape, in a stable order. */
export const PAGE_PARAMS = Object.keys(PageQuery.shape) as (keyof PageQuery)[];

/** A page's parsed query, the raw values it kept, and what was wrong with the rest. */
export interface ReadPageQuery {
  query: PageQuery;
  /** The accepted parameters as given (trimmed), for links and form values. */
  params: Record<string, string>;
  problems: string[];
}

/** Parses the query string of a page. */
export function readPageQuery(raw: Record<string, string>): ReadPageQuery {
  const params: Record<string, string> = {};
  for (const name of PAGE_PARAMS) {
    const value = raw[name]?.trim();
    if (value) params[name] = value;
  }
  const problems: string[] = [];
  let parsed = PageQuery.safeParse(params);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(issue.message);
      delete params[String(issue.path[0])];
    }
    parsed = PageQuery.safeParse(params);
  }
  // The second parse only sees values the first accepted.
  return { query: parsed.data!, params, problems };
}

/** The filters of a page query, as the list and search functions take them. */
export function pageFilters(query: PageQuery): EventFilters {
  const { mode: _mode, interpret: _interpret, ...rest } = query;
  return filtersOf(rest);
}

/** A URL of `path` with the given parameters, dropping empty ones. */
export function withParams(path: string, params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== "") search.set(name, value);
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** `params` without paging and mode: what a feed of the same listing takes. */
export function feedParams(params: Record<string, string>): Record<string, string> {
  const { cursor: _c, limit: _l, mode: _m, interpret: _i, ...filters } = params;
  return filters;
}
