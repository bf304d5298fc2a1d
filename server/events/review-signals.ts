/** Records the review signals of a batch's stored events, inside the batch's transaction. */
import type { Sql } from "postgres";
import type { EventRecord } from "../../shared/event-schema.ts";
import type { UpsertOutcome } from "../db/events.ts";
import { storeEventSignals } from "../db/event-signals.ts";
import { hostOf, signalsOf } from "./event-signals.ts";

const pairOf = (e: EventRecord) => JSON.stringify([e.platform, e.external_id]);

/**
 * Works out each stored event's signals (those of the pair's last occurrence, which is what was
 * stored) and stores them. `outcome.eventIds` follows the first occurrences of the pairs that
 * were not another contributor's, which is how ids are matched to pairs here.
 */
export async function recordReviewSignals(
  tx: Sql,
  batch: { contributorId: string; events: EventRecord[]; outcome: UpsertOutcome },
): Promise<void> {
  const { events, outcome } = batch;
  // Spam hosts are matched by the statement that stores the signals: one round trip.
  const signals = signalsOf(events, { now: new Date() });
  const foreign = new Set(outcome.errors.map((error) => error.index));
  const lastIndex = new Map<string, number>();
  const firstPairs: string[] = [];
  events.forEach((e, i) => {
    if (foreign.has(i)) return;
    const pair = pairOf(e);
    if (!lastIndex.has(pair)) firstPairs.push(pair);
    lastIndex.set(pair, i);
  });
  await storeEventSignals(tx, {
    contributorId: batch.contributorId,
    events: outcome.eventIds.map((eventId, n) => {
      const last = lastIndex.get(firstPairs[n])!;
      return { eventId, signals: signals[last], host: hostOf(events[last].source_url) };
    }),
  });
}
