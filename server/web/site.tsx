/**
 * The public site, the contributor dashboard and the operators' review queue: server-rendered
 * pages on the API's own functions. Mounted into the application by createApp.
 */
import { cfpRoute } from "./routes/cfp-route.tsx";
import { cfpAtomFeedRoute, cfpIcsFeedRoute } from "./routes/cfp-feed-routes.ts";
import { Hono } from "hono";
import type { Context, MiddlewareHandler } from "hono";
import { every } from "hono/combine";
import type { AppDeps } from "../app-env.ts";
import { sameOriginForms } from "../accounts/csrf.ts";
import { rateLimit } from "../middleware/rate-limit.ts";
import { clientAddress } from "../client-address.ts";
import { loadStaticAssets } from "./static-assets.ts";
import { siteSecurityHeaders } from "./security-headers.ts";
import type { SiteEnv } from "./site-context.ts";
import { loadViewer } from "../accounts/viewer.ts";
import { notFoundPage, onSiteError, wantsPage } from "./site-errors.tsx";
import { homeRoute } from "./routes/home-route.tsx";
import { eventIcsRoute, eventRoute } from "./routes/event-route.tsx";
import { actorPageRoute, fediverseIndexRoute } from "./routes/fediverse-routes.tsx";
import { atomFeedRoute, icsFeedRoute } from "./routes/feed-routes.ts";
import { alertFeedRoute } from "./routes/alert-feed-routes.ts";
import {
  alertActionRoute,
  alertsRoute,
  newAlertRoute,
  saveAlertRoute,
} from "./routes/alerts-routes.tsx";
import { unsubscribeFormRoute, unsubscribeRoute } from "./routes/unsubscribe-routes.tsx";
import { confirmEmailRoute, resendConfirmationRoute } from "./routes/email-confirmation-routes.tsx";
import {
  accountFormRoute,
  signInRoute,
  signOutRoute,
  signUpRoute,
} from "./routes/account-routes.tsx";
import { confirmOperatorRoute, dashboardRoute } from "./routes/dashboard-routes.tsx";
import { auditRoute } from "./routes/audit-route.tsx";
import { cleanUpConfirmRoute, cleanUpRoute } from "./routes/clean-up-routes.tsx";
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
import {
  duplicateDecisionRoute,
  reviewDuplicatesRoute,
} from "./routes/review-duplicates-routes.tsx";

/** The site, mounted by the application at `/`, and its page for addresses nothing answers. */
export interface Site {
  site: Hono<SiteEnv>;
  /** The 404 page, for a browser asking for a page at an unknown address; null otherwise. */
  pageNotFound: (c: Context) => Promise<Response> | null;
}

/** The site as a Hono app whose routes the application mounts at `/`. */
export async function createSite(deps: AppDeps): Promise<Site> {
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
  // Public reads share the API's per-address budget (same bucket): a page costs what a call does.
  const publicLimit = rateLimit({
    bucket: (c) => `ip:${clientAddress(c, deps.config.trustProxy)}`,
    limitPerMinute: () => deps.config.publicRateLimitPerMinute,
    policy: "public",
  });

  site.get("/static/:name", (c) => assets.serve(c));
  site.get("/", page, publicLimit, homeRoute);
  site.get("/events.ics", page, publicLimit, icsFeedRoute);
  site.get("/events.atom", page, publicLimit, atomFeedRoute);
  site.get("/cfp", page, publicLimit, cfpRoute);
  site.get("/cfp.ics", page, publicLimit, cfpIcsFeedRoute);
  site.get("/cfp.atom", page, publicLimit, cfpAtomFeedRoute);
  site.get("/alerts", page, alertsRoute);
  site.get("/alerts/new", page, newAlertRoute);
  site.post("/alerts", page, sameOrigin, saveAlertRoute);
  for (const action of ["pause", "resume", "test", "delete"] as const) {
    site.post(`/alerts/searches/:id/${action}`, page, sameOrigin, alertActionRoute(action));
  }
  site.get("/alerts/:file", page, publicLimit, alertFeedRoute);
  site.get("/alerts/unsubscribe/:token", page, publicLimit, unsubscribeFormRoute);
  // No same-origin check: RFC 8058's one-click POST comes from the mail provider.
  site.post("/alerts/unsubscribe/:token", page, publicLimit, unsubscribeRoute);
  site.get("/account/confirm-email", page, publicLimit, confirmEmailRoute);
  site.post("/dashboard/confirm-email", page, sameOrigin, resendConfirmationRoute);
  site.get("/events/:id", page, publicLimit, eventRoute);
  site.get("/events/:id/calendar.ics", page, publicLimit, eventIcsRoute);
  site.get("/fediverse", page, publicLimit, fediverseIndexRoute);
  site.get("/fediverse/:handle", page, publicLimit, actorPageRoute);

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
  site.get("/review/audit", page, auditRoute);
  site.get("/review/contributors/:id/clean-up", page, cleanUpConfirmRoute);
  site.post("/review/contributors/:id/clean-up", page, sameOrigin, cleanUpRoute);
  site.post("/review/keys/:id/trust", page, sameOrigin, decisionRoute("trust"));
  site.post("/review/keys/:id/untrust", page, sameOrigin, decisionRoute("untrust"));
  site.get("/review/keys/:id/revoke", page, revokeConfirmRoute);
  site.post("/review/keys/:id/revoke", page, sameOrigin, decisionRoute("revoke"));
  site.get("/review/contributors/:id/delete-events", page, deleteEventsConfirmRoute);
  site.post("/review/contributors/:id/delete-events", page, sameOrigin, deleteEventsRoute);
  site.get("/review/duplicates", page, reviewDuplicatesRoute);
  site.post("/review/duplicates/split", page, sameOrigin, duplicateDecisionRoute("split"));
  site.post("/review/duplicates/join", page, sameOrigin, duplicateDecisionRoute("join"));
  site.onError(onSiteError);
  const pageNotFound = (c: Context) => {
    if (!wantsPage(c)) return null;
    // The application's not-found handler runs outside the site's routes: give the page what
    // a route's middleware would have.
    return (async () => {
      await page(c as Context<SiteEnv>, () => {
        c.res = notFoundPage(c);
        return Promise.resolve();
      });
      return c.res;
    })();
  };
  return { site, pageNotFound };
}
