/**
 * Operator decisions on a whole contributor: deleting all its events, and the one-action
 * clean-up. Each is recorded in the audit log in the same transaction.
 */
import type { Sql } from "postgres";
import type { AppDeps } from "../app-env.ts";
import { deleteEventsOfContributor } from "../db/event-deletes.ts";
import { recordOperatorDecision } from "../db/operator-decisions.ts";
import { mendGroupsAfterDeletes } from "../duplicates/regroup.ts";
import { cleanUpContributorRows, type CleanUpCounts } from "../db/contributor-clean-up.ts";

type Deps = Pick<AppDeps, "db" | "ai">;

/** Deletes every event of the contributor; returns how many. */
export async function deleteContributorEvents(
  deps: Deps,
  decision: { contributorId: string; decidedBy: string },
): Promise<number> {
  const deleted = await deps.db.sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    const deleted = await deleteEventsOfContributor(tx, decision.contributorId);
    await recordOperatorDecision(tx, {
      decidedBy: decision.decidedBy,
      action: "delete_events",
      contributorId: decision.contributorId,
      details: { events_deleted: deleted },
    });
    return deleted;
  });
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
  const counts = await deps.db.sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    const changed = await cleanUpContributorRows(tx, decision.contributorId);
    await recordOperatorDecision(tx, {
      decidedBy: decision.decidedBy,
      action: "clean_up",
      contributorId: decision.contributorId,
      details: { ...changed },
    });
    return changed;
  });
  if (counts.events_deleted > 0) await mendGroupsAfterDeletes(deps.db.sql);
  // Revoked keys' events leave AI search; the worker forgets what it was embedding.
  deps.ai.wakeWorker();
  return counts;
}
