/** GET /review/audit: the audit log for operators signed in on the site. */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { listOperatorDecisions } from "../../db/operator-decisions.ts";
import { renderDocument } from "../components/layout.tsx";
import { AuditPage } from "../pages/audit-page.tsx";
import { pageContext } from "../site-context.ts";
import { requireOperator } from "./review-routes.tsx";

const PAGE_SIZE = 100;

/** Renders a page of decisions, older ones behind a link. */
export async function auditRoute(c: Context<AppEnv>): Promise<Response> {
  requireOperator(c);
  const before = c.req.query("before");
  const rows = await listOperatorDecisions(c.get("deps").db.sql, {
    limit: PAGE_SIZE + 1,
    // Anything but a decision id starts at the newest.
    before: before && /^[1-9][0-9]{0,17}$/.test(before) ? before : undefined,
  });
  const decisions = rows.slice(0, PAGE_SIZE);
  c.header("Cache-Control", "no-store");
  return c.html(renderDocument(
    <AuditPage
      page={pageContext(c)}
      decisions={decisions}
      olderHref={rows.length > PAGE_SIZE
        ? `/review/audit?before=${decisions[decisions.length - 1].id}`
        : null}
    />,
  ));
}
