/**
 * Operators' decisions on duplicates: two listings are the same event, or are not. A decision is
 * a link detection never replaces, so it outlasts re-pushes and re-detection; it goes when either
 * event is deleted.
 */
import type { Sql } from "postgres";
import {
  decideLink,
  existingEvents,
  groupedEventsOfKey,
  lockDuplicates,
} from "../db/duplicate-links.ts";
import { recordOperatorDecision } from "../db/operator-decisions.ts";
import { AppError, validationError } from "../errors.ts";
import { isUuid } from "../uuid.ts";
import { regroup } from "./regroup.ts";

/** One operator decision on a pair of listings. */
export interface SameEventDecision {
  id: string;
  otherId: string;
  same: boolean;
  /** Who decided: the operator key's prefix or the operator's e-mail. */
  decidedBy: string;
}

/**
 * Records that two listings are (or are not) the same real-world event, regroups them and writes
 * the decision to the audit log. The one place every operator decision on duplicates goes through
 * (API and review pages alike).
 */
export async function decideSameEvent(sql: Sql, d: SameEventDecision): Promise<void> {
  if (d.id === d.otherId) {
    throw validationError([{
      path: ["other_id"],
      message: "other_id names the event itself: give the id of another listing",
    }]);
  }
  const ids = [d.id, d.otherId];
  await sql.begin(async (transaction) => {
    // postgres.js types a transaction apart from the pool, though both run the same queries.
    const tx = transaction as unknown as Sql;
    await lockDuplicates(tx);
    const found = new Set(await existingEvents(tx, ids.filter(isUuid)));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) {
      throw new AppError(
        "not_found",
        `No event has the id ${JSON.stringify(missing)}: it was deleted, or the id is wrong.`,
      );
    }
    await decideLink(tx, { a: d.id, b: d.otherId, same: d.same, decidedBy: d.decidedBy });
    await regroup(tx, ids);
    await recordOperatorDecision(tx, {
      decidedBy: d.decidedBy,
      action: d.same ? "join" : "split",
      eventId: d.id,
      details: { other_event_id: d.otherId },
    });
  });
}

/**
 * Re-chooses the canonical event of the groups holding events `keyId` last wrote: the rule puts
 * trusted contributors first, so trusting or untrusting a key can change it.
 */
export async function regroupAfterTrustChange(sql: Sql, keyId: string): Promise<void> {
  await sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    await lockDuplicates(tx);
    await regroup(tx, await groupedEventsOfKey(tx, keyId));
  });
}
