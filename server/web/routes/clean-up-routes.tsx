/** The review queue's one-action clean-up of a contributor, behind a confirmation page. */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { checkedForm } from "../../accounts/csrf.ts";
import { cleanUpContributor } from "../../auth/contributor-decisions.ts";
import { cleanUpPreview } from "../../db/contributor-clean-up.ts";
import { AppError } from "../../errors.ts";
import { isUuid } from "../../uuid.ts";
import { renderDocument } from "../components/layout.tsx";
import { ConfirmPage } from "../pages/confirm-page.tsx";
import { pageContext } from "../site-context.ts";
import { requireOperator } from "./review-routes.tsx";

function contributorId(c: Context<AppEnv>): string {
  const id = c.req.param("id") ?? "";
  if (!isUuid(id)) throw new AppError("not_found", "No contributor has that id.");
  return id;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** GET /review/contributors/{id}/clean-up: says what will happen, and asks. */
export async function cleanUpConfirmRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireOperator(c);
  const id = contributorId(c);
  const preview = await cleanUpPreview(c.get("deps").db.sql, id);
  if (!preview) throw new AppError("not_found", "No contributor has that id.");
  c.header("Cache-Control", "no-store");
  return c.html(renderDocument(
    <ConfirmPage
      page={pageContext(c)}
      csrfToken={viewer.csrfToken}
      cancelHref="/review"
      title={`Clean up ${preview.name}?`}
      message={`${plural(preview.active_keys, "active key")} will be revoked, ` +
        `${plural(preview.events, "event")} deleted from the site, search and feeds, and ` +
        (preview.email
          ? `the account ${preview.email} blocked from signing in. `
          : "the contributor has no site account to block. ") +
        "This cannot be undone; it is recorded in the audit log."}
      action={`/review/contributors/${id}/clean-up`}
      button="Clean up"
    />,
  ));
}

/** POST /review/contributors/{id}/clean-up */
export async function cleanUpRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireOperator(c);
  await checkedForm(c, viewer);
  const id = contributorId(c);
  const deps = c.get("deps");
  if (!await cleanUpPreview(deps.db.sql, id)) {
    throw new AppError("not_found", "No contributor has that id.");
  }
  const counts = await cleanUpContributor(deps, { contributorId: id, decidedBy: viewer.email });
  return c.redirect(
    `/review?cleaned=${counts.events_deleted}.${counts.keys_revoked}`,
    303,
  );
}
