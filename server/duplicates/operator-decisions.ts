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
  underDuplicatesLock,
} from "../db/duplicate-links.ts";
import { recordOperatorDecision } from "../db/operator-decisions.ts";
import { redetectionRowsOf } from "../db/duplicate-rules.ts";
import { eventsInAiSearch } from "../db/vector-candidates.ts";
import { detectStored } from "./detect-duplicates.ts";
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
 * the decision to the audit log: for the API and the review pages alike.
 */
export async function decideSameEvent(sql: Sql, d: SameEventDecision): Promise<void> {
  if (d.id === d.otherId) {
    throw validationError([{
      path: ["other_id"],
      message: "other_id names the event itself: give the id of another listing",
    }]);
  }
  const ids = [d.id, d.otherId];
  await underDuplicatesLock(sql, async (tx) => {
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
 * Detects again the grouped events `keyId` last wrote and re-chooses their groups' canonical
 * events: the canonical rule puts trusted contributors first, and a pair found by vectors holds
 * only while both events are in AI search, which an untrusted key's events leave at once.
 */
export async function regroupAfterTrustChange(sql: Sql, keyId: string): Promise<void> {
  await underDuplicatesLock(sql, async (tx) => {
    const grouped = await groupedEventsOfKey(tx, keyId);
    // Vectors are read only where some event still has one in AI search (so the store exists).
    const inAiSearch = new Set((await eventsInAiSearch(tx, grouped)).map((r) => r.id));
    await detectStored(tx, await redetectionRowsOf(tx, grouped), {
      recompare: true,
      vectors: (events) => events.some((e) => inAiSearch.has(e.id)),
    });
    await regroup(tx, grouped);
  });
}
