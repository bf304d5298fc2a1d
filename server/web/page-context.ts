/** What every page is rendered with: asset URLs and who is looking. */
import type { StaticAssets } from "./static-assets.ts";

/** A signed-in visitor, as pages and handlers need to know them. */
export interface Viewer {
  accountId: string;
  email: string;
  /** The contributor the account is: owner of its keys and their events. */
  contributorId: string;
  contributorName: string;
  /** Whether the address is in OPERATOR_EMAILS (confirmed or not). */
  operatorAddress: boolean;
  /** Whether the account may act as an operator: listed address, proven operator key. */
  isOperator: boolean;
  /** The session's CSRF token, put in every form. */
  csrfToken: string;
}

export interface PageContext {
  assets: StaticAssets;
  viewer: Viewer | null;
}
