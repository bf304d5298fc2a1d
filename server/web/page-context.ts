/** What every page is rendered with: asset URLs and who is looking. */
import type { StaticAssets } from "./static-assets.ts";

/** A signed-in visitor, as pages need to know them. */
export interface Viewer {
  email: string;
  isOperator: boolean;
  /** The session's CSRF token, put in every form. */
  csrfToken: string;
}

export interface PageContext {
  assets: StaticAssets;
  viewer: Viewer | null;
}
