/** What site handlers find on the Hono context, beyond the API's dependencies. */
import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import type { StaticAssets } from "./static-assets.ts";
import type { PageContext } from "./page-context.ts";
import type { Viewer } from "../accounts/viewer.ts";

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
