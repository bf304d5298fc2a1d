/**
 * Detection for listings already stored: those a batch queued (server/db/duplicate-queue.ts), or
 * looked at again (new rules, a new vector, a trust change). One run per contributor, as a batch
 * is one contributor's.
 */
import type { Sql } from "postgres";
import type { RedetectionRow } from "../db/duplicate-rules.ts";
import { detectDuplicates, type DetectionTimings } from "./detect-duplicates.ts";

/**
 * Detects `rows`. `recompare`: compare each again even where its matched fields are as they were
 * (new rules, a new vector, a trust change); `vectors` says, per contributor's listings, whether to
 * read vectors; `timings` adds up each step's milliseconds (benchmarks).
 */
export async function detectStored(
  tx: Sql,
  rows: RedetectionRow[],
  o: {
    recompare: boolean;
    vectors: (events: RedetectionRow[]) => boolean;
    timings?: DetectionTimings;
  },
): Promise<void> {
  const byContributor = Map.groupBy(rows, (row) => row.contributor_id);
  for (const [contributorId, events] of byContributor) {
    await detectDuplicates(tx, {
      contributorId,
      changed: events.map((event) => ({ id: event.id, event })),
    }, { recompare: o.recompare, vectors: o.vectors(events), timings: o.timings });
  }
}
