/** What every page is rendered with: asset URLs and who is looking. */
import type { StaticAssets } from "./static-assets.ts";
import type { Viewer } from "../accounts/viewer.ts";

export interface PageContext {
  assets: StaticAssets;
  viewer: Viewer | null;
}
