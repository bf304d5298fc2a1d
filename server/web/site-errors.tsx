/**
 * How the site answers errors: pages with a page (status, message, the headers the error asks
 * for), feeds like the API (JSON), and a visitor who must sign in with a redirect.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { errorHeaders, isExpectedError } from "../errors.ts";
import { answeredError, errorResponse } from "../error-response.ts";
import { logProblem } from "../log-line.ts";
import type { SiteEnv } from "./site-context.ts";
import { pageContext } from "./site-context.ts";
import { renderDocument } from "./components/layout.tsx";
import { MessagePage } from "./pages/message-page.tsx";
import { SignInRequired } from "./routes/dashboard-routes.tsx";

const PAGE_TITLES: Record<number, string> = {
  400: "That request was not understood",
  403: "Not allowed",
  404: "Not found",
  429: "Too many requests",
  500: "Something went wrong",
  503: "Temporarily unavailable",
};

/** Feeds and files answer errors like the API does (JSON); pages answer with a page. */
function isPage(c: Context): boolean {
  return !/\.(ics|atom)$/.test(c.req.path);
}

/**
 * Whether a request nothing answers is a browser asking for a page (which gets the site's 404
 * page) rather than a program (which gets the API's JSON 404).
 */
export function wantsPage(c: Context): boolean {
  if (c.req.method !== "GET" && c.req.method !== "HEAD") return false;
  if (/^\/(api|mcp|healthz)(\/|$)/.test(c.req.path) || !isPage(c)) return false;
  return (c.req.header("Accept") ?? "").includes("text/html");
}

/** The page for an address the site has no page at. */
export function notFoundPage(c: Context): Response {
  return errorPage(
    c,
    404,
    "There is no page at this address. Search the upcoming events, or start from the list.",
  );
}

function errorPage(c: Context, status: number, message: string): Response {
  const body = renderDocument(
    <MessagePage
      page={pageContext(c)}
      title={PAGE_TITLES[status] ?? "Error"}
      message={message}
      search={status === 404}
    />,
  );
  return c.html(body, status as 404);
}

/** The site's error handler. */
export function onSiteError(err: Error, c: Context): Response {
  if (err instanceof SignInRequired) return c.redirect("/sign-in", 303);
  if (err instanceof HTTPException) {
    // Hono's csrf middleware refuses with 403.
    if (!isPage(c)) return err.getResponse();
    return errorPage(
      c,
      err.status,
      "This form did not come from this site. Reload the page and send it again.",
    );
  }
  if (!isPage(c)) return errorResponse(c, err);
  if (!isExpectedError(err)) {
    logProblem({
      level: "error",
      request_id: (c as Context<SiteEnv>).get("requestId"),
      error: err,
    });
  }
  const error = answeredError(err);
  if (error.code === "internal") {
    return errorPage(c, 500, "The page could not be shown. Try again in a moment.");
  }
  for (const [name, value] of Object.entries(errorHeaders(error))) c.header(name, value);
  return errorPage(c, error.status, error.message);
}
