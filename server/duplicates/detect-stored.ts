/**
 * Detection for listings already stored: those a batch queued (server/db/duplicate-queue.ts), or
 * looked at again (new rules, a new vector, a trust change). One run per contributor, as a batch
 * is one contributor's.
 */
import type { Sql } from "postgres";
import type { RedetectionRow } from "../db/duplicate-rules.ts";
import { detectDuplicates, type DetectionTimings } from "./detect-duplicates.ts";

/** A stored listing to detect; `inserted`: it was written new and has no keys or links yet. */
export type StoredListing = RedetectionRow & { inserted?: boolean };

/**
 * Detects `rows`. `recompare`: compare each again even where its matched fields are as they were
 * (new rules, a new vector, a trust change); `vectors` says, per contributor's listings, whether to
 * read vectors; `timings` adds up each step's milliseconds (benchmarks).
 */
export async function detectStored(
  tx: Sql,
  rows: StoredListing[],
  o: {
    recompare: boolean;
    vectors: (events: StoredListing[]) => boolean;
    timings?: DetectionTimings;
  },
): Promise<void> {
  const byContributor = new Map<string, StoredListing[]>();
  for (const row of rows) {
    const own = byContributor.get(row.contributor_id);
    if (own) own.push(row);
    else byContributor.set(row.contributor_id, [row]);
  }
  for (const [contributorId, events] of byContributor) {
    await detectDuplicates(tx, {
      contributorId,
      changed: events.map((event) => ({ id: event.id, inserted: event.inserted ?? false, event })),
    }, { recompare: o.recompare, vectors: o.vectors(events), timings: o.timings });
  }
}
