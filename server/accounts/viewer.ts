/** The signed-in visitor of a request, from the session cookie. */
import type { Context } from "hono";
import type { AppDeps } from "../app-env.ts";
import { currentSession } from "./sessions.ts";
import { isOperator, isOperatorAddress } from "./operators.ts";

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
