/**
 * The operators' review queue: the same decisions as the operator API (server/auth/
 * key-decisions.ts) and the same deletion. Only confirmed operators see it; for anyone else it
 * does not exist (404).
 */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { checkedForm } from "../../accounts/csrf.ts";
import { type ApiKeyRecord, findApiKeyByRef, listApiKeys } from "../../db/api-keys.ts";
import { firstBatchOf } from "../../db/key-trust.ts";
import { signalCounts } from "../../db/event-signals.ts";
import { deleteContributorEvents } from "../../auth/contributor-decisions.ts";
import { contributorExists } from "../../db/event-deletes.ts";
import { revokeKey, trustKey, untrustKey } from "../../auth/key-decisions.ts";
import { AppError } from "../../errors.ts";
import { isUuid } from "../../uuid.ts";
import { renderDocument } from "../components/layout.tsx";
import { ReviewPage } from "../pages/review-page.tsx";
import { confirmPage } from "../pages/confirm-page.tsx";
import { noticesOf } from "../page-notices.ts";
import type { Viewer } from "../../accounts/viewer.ts";
import { pageContext } from "../site-context.ts";
import { listActorsWithFollowers } from "../../db/federation-actors.ts";
import { listBlocks } from "../../db/federation-blocks.ts";
import { requireViewer } from "./dashboard-routes.tsx";

/** Pending keys shown at once, oldest batch first. */
const QUEUE_LENGTH = 20;

/** The signed-in operator; anyone else gets 404, as if the page did not exist. */
export function requireOperator(c: Context<AppEnv>): Viewer {
  const viewer = requireViewer(c);
  if (!viewer.isOperator) throw new AppError("not_found", "There is no such page.");
  return viewer;
}

async function keyFromPath(c: Context<AppEnv>): Promise<ApiKeyRecord> {
  const id = c.req.param("id") ?? "";
  const key = isUuid(id) ? await findApiKeyByRef(c.get("deps").db.sql, id) : null;
  if (!key) throw new AppError("not_found", "No key has that id.");
  return key;
}

/**
 * Pending keys whose contributors' events carry the most review signals first (every event
 * counted once per signal it has); among equals, the oldest first batch first.
 */
function queueOrder(
  keys: ApiKeyRecord[],
  signals: Map<string, Record<string, number>>,
): ApiKeyRecord[] {
  const score = (key: ApiKeyRecord) =>
    Object.values(signals.get(key.contributor_id) ?? {}).reduce((a, b) => a + b, 0);
  return [...keys].sort((a, b) =>
    score(b) - score(a) ||
    (a.first_batch_at?.getTime() ?? 0) - (b.first_batch_at?.getTime() ?? 0)
  );
}

const NOTICES: Record<string, string> = {
  trusted: "Trusted: the key's events are entering AI search.",
  untrusted: "Decided: the key's events stay out of AI search.",
  revoked: "Revoked: the key is refused from its next request on.",
  deleted: "Deleted every event of the contributor.",
  cleaned: "Cleaned up: the contributor's keys are revoked, its events deleted and its account " +
    "blocked from signing in.",
};

/** GET /review */
export async function reviewRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireOperator(c);
  const sql = c.get("deps").db.sql;
  const pendingKeys = await listApiKeys(sql, { status: "pending" });
  const signals = await signalCounts(sql, [...new Set(pendingKeys.map((k) => k.contributor_id))]);
  const pending = await Promise.all(
    queueOrder(pendingKeys, signals).slice(0, QUEUE_LENGTH).map(async (key) => ({
      key,
      batch: await firstBatchOf(sql, key.id),
      signals: signals.get(key.contributor_id) ?? {},
    })),
  );
  const trusted = await listApiKeys(sql, { status: "trusted" });
  const notices = noticesOf(c, NOTICES);
  const fediverse = c.get("deps").federation
    ? {
      actors: await listActorsWithFollowers(sql),
      blocked: (await listBlocks(sql)).map((b) => b.domain),
    }
    : undefined;
  c.header("Cache-Control", "no-store");
  return c.html(renderDocument(
    <ReviewPage
      page={pageContext(c)}
      viewer={viewer}
      pending={pending}
      trusted={trusted}
      notices={notices}
      fediverse={fediverse}
    />,
  ));
}

/** POST /review/keys/{id}/trust|untrust|revoke */
export function decisionRoute(decision: "trust" | "untrust" | "revoke") {
  return async (c: Context<AppEnv>): Promise<Response> => {
    const viewer = requireOperator(c);
    await checkedForm(c, viewer);
    const key = await keyFromPath(c);
    const deps = c.get("deps");
    if (decision === "trust") await trustKey(deps, key, viewer.email);
    else if (decision === "untrust") await untrustKey(deps, key, viewer.email);
    else await revokeKey(deps, key, viewer.email);
    return c.redirect(`/review?${decision === "trust" ? "trusted" : `${decision}d`}=1`, 303);
  };
}

/** GET /review/keys/{id}/revoke: asks first. */
export async function revokeConfirmRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireOperator(c);
  const key = await keyFromPath(c);
  return confirmPage(c, viewer, {
    cancelHref: "/review",
    title: `Revoke ${key.prefix}… (${key.contributor})?`,
    message: "The key is refused from its next request on; its events stay listed.",
    action: `/review/keys/${key.id}/revoke`,
    button: "Revoke key",
  });
}

/** GET /review/contributors/{id}/delete-events: asks first. */
export function deleteEventsConfirmRoute(c: Context<AppEnv>): Response {
  const viewer = requireOperator(c);
  const id = c.req.param("id") ?? "";
  if (!isUuid(id)) throw new AppError("not_found", "No contributor has that id.");
  return confirmPage(c, viewer, {
    cancelHref: "/review",
    title: "Delete every event of this contributor?",
    message: "For spam: all their events leave the site, search and feeds at once. Keys stay.",
    action: `/review/contributors/${id}/delete-events`,
    button: "Delete all their events",
  });
}

/** POST /review/contributors/{id}/delete-events */
export async function deleteEventsRoute(c: Context<AppEnv>): Promise<Response> {
  const viewer = requireOperator(c);
  await checkedForm(c, viewer);
  const id = c.req.param("id") ?? "";
  if (!isUuid(id) || !await contributorExists(c.get("deps").db.sql, id)) {
    throw new AppError("not_found", "No contributor has that id.");
  }
  await deleteContributorEvents(c.get("deps"), { contributorId: id, decidedBy: viewer.email });
  return c.redirect("/review?deleted=1", 303);
}
