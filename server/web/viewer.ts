/** The signed-in visitor of a request, from the session cookie. */
import type { Context } from "hono";
import type { AppDeps } from "../app-env.ts";
import { currentSession } from "../accounts/sessions.ts";
import { isOperator, isOperatorAddress } from "../accounts/operators.ts";
import type { Viewer } from "./page-context.ts";

/** The viewer, or null when the request has no live session. */
export async function loadViewer(c: Context, deps: AppDeps): Promise<Viewer | null> {
  const session = await currentSession(c, deps.db.sql);
  if (!session) return null;
  return {
    accountId: session.account_id,
    email: session.email,
    contributorId: session.contributor_id,
    contributorName: session.contributor_name,
    operatorAddress: isOperatorAddress(deps.config, session.email),
    isOperator: isOperator(deps.config, session),
    csrfToken: session.csrf_token,
  };
}
