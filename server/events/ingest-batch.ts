/** Stores one validated batch for a key: all of it in one transaction, or nothing. */
import type { Sql } from "postgres";
import type { EventRecord } from "../../shared/event-schema.ts";
import type { AppDeps, Principal } from "../app-env.ts";
import { unreviewedBudgets } from "../config.ts";
import { upsertEvents, type UpsertOutcome } from "../db/events.ts";
import { recordFirstBatch } from "../db/api-keys.ts";
import { recordReviewSignals } from "./review-signals.ts";
import { budgetApplies, budgetRefusal, checkUpcomingBudget, OverBudget } from "./review-budget.ts";

/**
 * Upserts the batch, keeps it for review when it is the key's first, hands its written events to
 * duplicate detection (queued, detected after the commit), and wakes the embedding worker. An
 * unreviewed contributor's batch that would pass its budget is refused whole (409).
 */
export async function ingestBatch(
  deps: AppDeps,
  principal: Principal,
  events: EventRecord[],
): Promise<UpsertOutcome> {
  const { keyId, contributorId } = principal;
  if (keyId === null || contributorId === null) {
    throw new Error("Cannot ingest a batch: the operator key has no contributor");
  }
  // A batch waits while detection is too far behind, so that grouping's delay stays bounded.
  const release = await deps.duplicates.roomToQueue(events.length);
  try {
    return await ingestAdmitted(deps, { ...principal, keyId, contributorId }, events);
  } finally {
    release();
  }
}

/** ingestBatch once detection has room for the batch. */
async function ingestAdmitted(
  deps: AppDeps,
  principal: Principal & { keyId: string; contributorId: string },
  events: EventRecord[],
): Promise<UpsertOutcome> {
  const { keyId, contributorId } = principal;
  const limit = unreviewedBudgets(deps.config).maxUpcomingEvents;
  let outcome: UpsertOutcome;
  try {
    outcome = await deps.batchSlots.run(() =>
      deps.db.sql.begin(async (transaction) => {
        // postgres.js types a transaction apart from the pool, though both run the same queries.
        const tx = transaction as unknown as Sql;
        const limited = await budgetApplies(tx, principal);
        const result = await upsertEvents(tx, { keyId, contributorId }, events);
        if (limited) await checkUpcomingBudget(tx, { contributorId, limit });
        // Detected after the commit, while the next batch is stored (duplicate-detector.ts).
        await deps.duplicates.queue(tx, result.changed.map((c) => c.id));
        // A trusted key's events need no review; only what waits for review is signalled.
        if (!principal.trusted) {
          await recordReviewSignals(tx, { contributorId, events, outcome: result });
        }
        if (!principal.hasFirstBatch && result.eventIds.length > 0) {
          await recordFirstBatch(tx, keyId, result.eventIds);
        }
        return result;
      })
    );
  } catch (err) {
    if (err instanceof OverBudget) throw await budgetRefusal(deps.db.sql, { contributorId, limit });
    throw err;
  }
  deps.duplicates.committed(outcome.changed.map((c) => c.id));
  // What the batch changed is recorded for federation by triggers; published once detected.
  deps.federation?.wake();
  // Only a trusted key's events need vectors; the worker's slow poll covers a key trusted
  // while this batch was in flight.
  if (principal.trusted && outcome.eventIds.length > 0) {
    deps.ai.wakeWorker();
  }
  return outcome;
}
