/**
 * Operator decisions on a whole contributor: deleting all its events, and the one-action
 * clean-up. Each is recorded in the audit log in the same transaction.
 */
import type { Sql } from "postgres";
import type { AppDeps } from "../app-env.ts";
import { deleteEventsOfContributor } from "../db/event-deletes.ts";
import { recordOperatorDecision } from "../db/operator-decisions.ts";
import { mendGroupsAfterDeletes } from "../duplicates/regroup.ts";
import { underDuplicatesLock } from "../db/duplicate-links.ts";
import { cleanUpContributorRows, type CleanUpCounts } from "../db/contributor-clean-up.ts";

type Deps = Pick<AppDeps, "db" | "ai">;

/**
 * Runs `change` on the contributor and records it in the audit log, in one transaction, under the
 * duplicates lock: both changes delete events (server/db/event-deletes.ts says why).
 */
async function decided<T extends object>(
  deps: Deps,
  decision: { contributorId: string; decidedBy: string; action: "delete_events" | "clean_up" },
  change: (tx: Sql) => Promise<T>,
): Promise<T> {
  return await underDuplicatesLock(deps.db.sql, async (tx) => {
    const counts = await change(tx);
    await recordOperatorDecision(tx, {
      ...decision,
      details: { ...counts } as Record<string, number>,
    });
    return counts;
  });
}

/** Deletes every event of the contributor; returns how many. */
export async function deleteContributorEvents(
  deps: Deps,
  decision: { contributorId: string; decidedBy: string },
): Promise<number> {
  const { events_deleted: deleted } = await decided(
    deps,
    { ...decision, action: "delete_events" },
    async (tx) => ({ events_deleted: await deleteEventsOfContributor(tx, decision.contributorId) }),
  );
  // Regrouping runs its own transactions, after the deletion is committed.
  if (deleted > 0) await mendGroupsAfterDeletes(deps.db.sql);
  return deleted;
}

/**
 * The one-action clean-up of a contributor: every key revoked, every event deleted (their source
 * hosts kept as a signal against others), its account blocked from signing in and signed out.
 */
export async function cleanUpContributor(
  deps: Deps,
  decision: { contributorId: string; decidedBy: string },
): Promise<CleanUpCounts> {
  const counts = await decided(
    deps,
    { ...decision, action: "clean_up" },
    (tx) => cleanUpContributorRows(tx, decision.contributorId),
  );
  if (counts.events_deleted > 0) await mendGroupsAfterDeletes(deps.db.sql);
  // Revoked keys' events leave AI search; the worker forgets what it was embedding.
  deps.ai.wakeWorker();
  return counts;
}
