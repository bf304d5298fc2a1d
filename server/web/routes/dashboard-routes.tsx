/** The contributor's dashboard page and the operator confirmation it offers. */
import { noticesOf } from "../page-notices.ts";
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { checkedForm, field } from "../../accounts/csrf.ts";
import { confirmOperator } from "../../db/accounts.ts";
import { keysOfContributor, recentEventsOfContributor } from "../../db/contributor-dashboard.ts";
import { apiKeyDigest, digestsEqual } from "../../auth/api-key-digest.ts";
import { AppError } from "../../errors.ts";
import { renderDocument } from "../components/layout.tsx";
import { DashboardPage, type DashboardPageProps } from "../pages/dashboard-page.tsx";
import type { Viewer } from "../../accounts/viewer.ts";
import { contributorIsUnreviewed } from "../../db/unreviewed-rule.ts";
import { unreviewedBudgets } from "../../config.ts";
import { pageContext } from "../site-context.ts";

/** Events listed on the dashboard. */
const RECENT_EVENTS = 50;

/** Thrown by requireViewer; the site's error handler answers with a redirect to /sign-in. */
export class SignInRequired extends Error {
  override name = "SignInRequired";
}

/** The signed-in viewer; anyone else is sent to sign in (thrown, so handlers stay linear). */
export function requireViewer(c: Context<AppEnv>): Viewer {
  const viewer = pageContext(c).viewer;
  if (!viewer) throw new SignInRequired();
  return viewer;
}

const NOTICES: Record<string, string> = {
  welcome: "Welcome! Your account is ready. Generate a key to start pushing events.",
  operator: "Operator access confirmed: the review queue is open to you.",
  revoked: "The key is revoked: it is refused from its next request on.",
  deleted: "Deleted. The events are gone from listings, search and feeds.",
};

/** Renders the dashboard; also used to send the new-key form back with its problems. */
export async function renderDashboard(
  c: Context<AppEnv>,
  options: { keyForm?: DashboardPageProps["keyForm"]; status?: 200 | 400 } = {},
): Promise<Response> {
  const viewer = requireViewer(c);
  const sql = c.get("deps").db.sql;
  const [keys, events, unreviewed] = await Promise.all([
    keysOfContributor(sql, viewer.contributorId),
    recentEventsOfContributor(sql, viewer.contributorId, RECENT_EVENTS),
    contributorIsUnreviewed(sql, viewer.contributorId),
  ]);
  const notices = noticesOf(c, NOTICES);
  c.header("Cache-Control", "no-store");
  return c.html(
    renderDocument(
      <DashboardPage
        page={pageContext(c)}
        viewer={viewer}
        keys={keys}
        events={events}
        notices={notices}
        keyForm={options.keyForm}
        now={new Date()}
        budgets={unreviewed ? unreviewedBudgets(c.get("deps").config) : null}
      />,
    ),
    options.status ?? 200,
  );
}

/** GET /dashboard */
export function dashboardRoute(c: Context<AppEnv>): Promise<Response> {
  return renderDashboard(c);
}

/** POST /dashboard/operator: an operator address proves it holds the operator key. */
export async function confirmOperatorRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireViewer(c);
  const fields = await checkedForm(c, viewer);
  const { config, db } = c.get("deps");
  const given = field(fields, "operator_key")?.trim() ?? "";
  const proven = viewer.operatorAddress && config.adminApiKey !== undefined && given !== "" &&
    digestsEqual(await apiKeyDigest(given), await apiKeyDigest(config.adminApiKey));
  if (!proven) {
    throw new AppError(
      "forbidden",
      "That is not the operator key of this server (ADMIN_API_KEY), or your address is not in OPERATOR_EMAILS.",
    );
  }
  await confirmOperator(db.sql, viewer.accountId);
  return c.redirect("/dashboard?operator=1", 303);
}
