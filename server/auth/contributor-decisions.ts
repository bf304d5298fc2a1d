/**
 * Operator decisions on a whole contributor: deleting all its events, and the one-action
 * clean-up. Each is recorded in the audit log in the same transaction.
 */
import type { Sql } from "postgres";
import type { AppDeps } from "../app-env.ts";
import { deleteEventsOfContributor } from "../db/event-deletes.ts";
import { recordOperatorDecision } from "../db/operator-decisions.ts";
import { mendGroupsAfterDeletes } from "../duplicates/regroup.ts";

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
