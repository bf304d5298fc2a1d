/**
 * The public site, the contributor dashboard and the operators' review queue: server-rendered
 * pages on the API's own functions. Mounted into the application by createApp.
 */
import { Hono } from "hono";
import type { Context, MiddlewareHandler } from "hono";
import { every } from "hono/combine";
import { HTTPException } from "hono/http-exception";
import type { AppDeps } from "../app-env.ts";
import { AppError, errorResponse } from "../errors.ts";
import { sameOriginForms } from "../accounts/csrf.ts";
import { loadStaticAssets } from "./static-assets.ts";
import { siteSecurityHeaders } from "./security-headers.ts";
import type { SiteEnv } from "./site-context.ts";
import { pageContext } from "./site-context.ts";
import { loadViewer } from "./viewer.ts";
import { renderDocument } from "./components/layout.tsx";
import { MessagePage } from "./pages/message-page.tsx";
import { homeRoute } from "./routes/home-route.tsx";
import { eventIcsRoute, eventRoute } from "./routes/event-route.tsx";
import { atomFeedRoute, icsFeedRoute } from "./routes/feed-routes.ts";
import {
  accountFormRoute,
  signInRoute,
  signOutRoute,
  signUpRoute,
} from "./routes/account-routes.tsx";
import {
  confirmOperatorRoute,
  dashboardRoute,
  SignInRequired,
} from "./routes/dashboard-routes.tsx";
import {
  createKeyRoute,
  deleteAllConfirmRoute,
  deleteAllRoute,
  deleteEventConfirmRoute,
  deleteEventRoute,
  revokeKeyConfirmRoute,
  revokeKeyRoute,
} from "./routes/dashboard-actions.tsx";
import {
  decisionRoute,
  deleteEventsConfirmRoute,
  deleteEventsRoute,
  reviewRoute,
  revokeConfirmRoute,
} from "./routes/review-routes.tsx";

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
export async function createSite(deps: AppDeps): Promise<Hono<SiteEnv>> {
  const assets = await loadStaticAssets();
  const site = new Hono<SiteEnv>();
  const siteContext: MiddlewareHandler<SiteEnv> = async (c, next) => {
    c.set("assets", assets);
    c.set("viewer", await loadViewer(c, deps));
    await next();
  };
  // Routes list their middleware themselves: a `use("*")` here would also run for the API
  // once the site is mounted at the root.
  const page = every(siteSecurityHeaders(), siteContext);
  // A separate handler, not inside `every`: its refusal must reach the error page with the page
  // context set and the security headers added.
  const sameOrigin = sameOriginForms();

  site.get("/static/:name", (c) => assets.serve(c));
  site.get("/", page, homeRoute);
  site.get("/events.ics", page, icsFeedRoute);
  site.get("/events.atom", page, atomFeedRoute);
  site.get("/events/:id", page, eventRoute);
  site.get("/events/:id/calendar.ics", page, eventIcsRoute);

  site.get("/sign-up", page, accountFormRoute("sign-up"));
  site.post("/sign-up", page, sameOrigin, signUpRoute);
  site.get("/sign-in", page, accountFormRoute("sign-in"));
  site.post("/sign-in", page, sameOrigin, signInRoute);
  site.post("/sign-out", page, sameOrigin, signOutRoute);

  site.get("/dashboard", page, dashboardRoute);
  site.post("/dashboard/operator", page, sameOrigin, confirmOperatorRoute);
  site.post("/dashboard/keys", page, sameOrigin, createKeyRoute);
  site.get("/dashboard/keys/:id/revoke", page, revokeKeyConfirmRoute);
  site.post("/dashboard/keys/:id/revoke", page, sameOrigin, revokeKeyRoute);
  site.get("/dashboard/events/delete-all", page, deleteAllConfirmRoute);
  site.post("/dashboard/events/delete-all", page, sameOrigin, deleteAllRoute);
  site.get("/dashboard/events/:id/delete", page, deleteEventConfirmRoute);
  site.post("/dashboard/events/:id/delete", page, sameOrigin, deleteEventRoute);

  site.get("/review", page, reviewRoute);
  site.post("/review/keys/:id/trust", page, sameOrigin, decisionRoute("trust"));
  site.post("/review/keys/:id/untrust", page, sameOrigin, decisionRoute("untrust"));
  site.get("/review/keys/:id/revoke", page, revokeConfirmRoute);
  site.post("/review/keys/:id/revoke", page, sameOrigin, decisionRoute("revoke"));
  site.get("/review/contributors/:id/delete-events", page, deleteEventsConfirmRoute);
  site.post("/review/contributors/:id/delete-events", page, sameOrigin, deleteEventsRoute);
  site.onError(onSiteError);
  return site;
}
