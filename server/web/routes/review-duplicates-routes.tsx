/**
 * The operators' review of duplicate listings: the same decisions as the operator API
 * (server/duplicates/operator-decisions.ts). Only confirmed operators see it.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { checkedForm } from "../../accounts/csrf.ts";
import { recentGroups } from "../../db/duplicate-groups-view.ts";
import { decideSameEvent } from "../../duplicates/operator-decisions.ts";
import { AppError } from "../../errors.ts";
import { renderDocument } from "../components/layout.tsx";
import { noticesOf } from "../page-notices.ts";
import { ReviewDuplicatesPage } from "../pages/review-duplicates-page.tsx";
import { pageContext } from "../site-context.ts";
import { requireViewer } from "./dashboard-routes.tsx";

const GROUPS_SHOWN = 30;

const NOTICES: Record<string, string> = {
  split: "Split: the two listings are shown apart from now on.",
  joined: "Joined: the two listings are shown as one event from now on.",
};

function requireOperator(c: Context<AppEnv>) {
  const viewer = requireViewer(c);
  if (!viewer.isOperator) throw new AppError("not_found", "There is no such page.");
  return viewer;
}

/** GET /review/duplicates */
export async function reviewDuplicatesRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireOperator(c);
  const groups = await recentGroups(c.get("deps").db.sql, GROUPS_SHOWN);
  const notices = noticesOf(c, NOTICES);
  c.header("Cache-Control", "no-store");
  return c.html(renderDocument(
    <ReviewDuplicatesPage
      page={pageContext(c)}
      viewer={viewer}
      groups={groups}
      notices={notices}
    />,
  ));
}

/** POST /review/duplicates/split|join with the two listings' ids. */
export function duplicateDecisionRoute(decision: "split" | "join") {
  return async (c: Context<AppEnv>): Promise<Response> => {
    const viewer = requireOperator(c);
    const form = await checkedForm(c, viewer);
    const id = typeof form.id === "string" ? form.id.trim() : "";
    const otherId = typeof form.other_id === "string" ? form.other_id.trim() : "";
    await decideSameEvent(c.get("deps").db.sql, {
      id,
      otherId,
      same: decision === "join",
      decidedBy: viewer.email,
    });
    return c.redirect(`/review/duplicates?${decision === "join" ? "joined" : "split"}=1`, 303);
  };
}
