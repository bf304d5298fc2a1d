/** What site handlers find on the Hono context, beyond the API's dependencies. */
import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import type { StaticAssets } from "./static-assets.ts";
import type { PageContext, Viewer } from "./page-context.ts";

export type SiteEnv = {
  Variables: AppEnv["Variables"] & {
    assets: StaticAssets;
    /** The signed-in visitor, or null. */
    viewer: Viewer | null;
  };
};

export type SiteContext = Context<SiteEnv>;

/** The page context of this request. */
export function pageContext(c: Context): PageContext {
  const site = c as SiteContext;
  return { assets: site.get("assets"), viewer: site.get("viewer") ?? null };
}

/**
 * The origin visitors use: the request's, or behind a trusted proxy the forwarded protocol and
 * host. Feeds and structured data need absolute URLs.
 */
export function siteOrigin(c: Context): string {
  const url = new URL(c.req.url);
  if ((c as Context<AppEnv>).get("deps").config.trustProxy) {
    const proto = c.req.header("X-Forwarded-Proto")?.split(",")[0]?.trim();
    const host = c.req.header("X-Forwarded-Host")?.split(",")[0]?.trim();
    if (proto === "http" || proto === "https") url.protocol = `${proto}:`;
    if (host && /^[A-Za-z0-9.-]+(:\d+)?$/.test(host)) url.host = host;
  }
  return url.origin;
}
