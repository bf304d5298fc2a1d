/**
 * The answer for a request no route takes: 405 with `Allow` when the path is known under other
 * methods, else 404. The known paths are the application's own routes, read when first needed.
 */
import type { Context, Hono } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { AppError } from "../errors.ts";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * Builds the not-found handler of `app`; `notFoundMessage` is the 404's message. `page`, when it
 * gives an answer, answers an unknown path instead (the site's page for browsers).
 */
export function methodNotAllowed(
  // deno-lint-ignore no-explicit-any
  app: Hono<any>,
  options: {
    notFoundMessage: string;
    page?: (c: Context) => Promise<Response> | null;
  },
): (c: Context) => Response | Promise<Response> {
  let router: TrieRouter<string> | undefined;
  const allowedMethods = (path: string): string[] => {
    if (!router) {
      router = new TrieRouter<string>();
      // "ALL" entries are middleware (app.use); they do not make a path known.
      for (const route of app.routes) {
        if (route.method !== "ALL") router.add(route.method, route.path, route.method);
      }
    }
    const allowed = METHODS.filter((m) => router!.match(m, path)[0].length > 0);
    // Hono answers HEAD with the GET route.
    if (allowed.includes("GET") && !allowed.includes("HEAD")) allowed.splice(1, 0, "HEAD");
    return allowed;
  };
  return function notFound(c) {
    const allowed = allowedMethods(c.req.path);
    if (allowed.length === 0) {
      const page = options.page?.(c);
      if (page) return page;
      throw new AppError("not_found", options.notFoundMessage);
    }
    throw new AppError(
      "method_not_allowed",
      `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(", ")}.`,
      { headers: { Allow: allowed.join(", ") } },
    );
  };
}
