/**
 * One-line notices after an action ("The key is revoked."): the action redirects with a flag in
 * the query string (`?revoked=1`), and the page shows the notice of each flag it knows.
 */
import type { Context } from "hono";

/** The notices of `known` whose flag is in the request's query string, in `known`'s order. */
export function noticesOf(c: Context, known: Record<string, string>): string[] {
  return Object.keys(known).filter((name) => c.req.query(name) !== undefined)
    .map((name) => known[name]);
}
