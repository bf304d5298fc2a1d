/**
 * The public site, the contributor dashboard and the operators' review queue: server-rendered
 * pages on the API's own functions. Mounted into the application by createApp.
 */
import { Hono } from "hono";
import { every } from "hono/combine";
import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { AppError, errorResponse } from "../errors.ts";
import { loadStaticAssets } from "./static-assets.ts";
import { siteSecurityHeaders } from "./security-headers.ts";
import type { SiteEnv } from "./site-context.ts";
import { pageContext } from "./site-context.ts";
import { renderDocument } from "./components/layout.tsx";
import { MessagePage } from "./pages/message-page.tsx";
import { homeRoute } from "./routes/home-route.tsx";
import { eventIcsRoute, eventRoute } from "./routes/event-route.tsx";
import { atomFeedRoute, icsFeedRoute } from "./routes/feed-routes.ts";

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

function errorPage(c: Context, status: number, message: string): Response {
  const body = renderDocument(
    <MessagePage page={pageContext(c)} title={PAGE_TITLES[status] ?? "Error"} message={message} />,
  );
  return c.html(body, status as 404);
}

function onSiteError(err: Error, c: Context): Response {
  if (err instanceof HTTPException) {
    // Hono's csrf middleware refuses with 403.
    if (!isPage(c)) return err.getResponse();
    return errorPage(
      c,
      err.status,
      "The form came from another site or expired. Reload the page and try again.",
    );
  }
  if (!isPage(c)) return errorResponse(c, err);
  if (err instanceof AppError) return errorPage(c, err.status, err.message);
  console.error(JSON.stringify({
    time: new Date().toISOString(),
    level: "error",
    request_id: (c as Context<SiteEnv>).get("requestId"),
    error: err.stack ?? err.message,
  }));
  return errorPage(c, 500, "The page could not be shown. Try again in a moment.");
}

/** The site as a Hono app whose routes the application mounts at `/`. */
export async function createSite(): Promise<Hono<SiteEnv>> {
  const assets = await loadStaticAssets();
  const site = new Hono<SiteEnv>();
  const security = siteSecurityHeaders();
  // Routes list their middleware themselves: a `use("*")` here would also run for the API
  // once the site is mounted at the root.
  const siteContext: MiddlewareHandler<SiteEnv> = async (c, next) => {
    c.set("assets", assets);
    c.set("viewer", null);
    await next();
  };
  const page = every(security, siteContext);

  site.get("/static/:name", (c) => assets.serve(c));
  site.get("/", page, homeRoute);
  site.get("/events.ics", page, icsFeedRoute);
  site.get("/events.atom", page, atomFeedRoute);
  site.get("/events/:id", page, eventRoute);
  site.get("/events/:id/calendar.ics", page, eventIcsRoute);
  site.onError(onSiteError);
  return site;
}
