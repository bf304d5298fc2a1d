/**
 * Detection again for listings already stored (new rules, a new vector, a trust change): each is
 * compared again even where its matched fields are as they were, one run per contributor, as
 * ingestion detects a contributor's batch.
 */
import type { Sql } from "postgres";
import type { RedetectionRow } from "../db/duplicate-rules.ts";
import { detectDuplicates } from "./detect-duplicates.ts";

/** Detects `rows` again; `vectors` says, per contributor's listings, whether to read vectors. */
export async function redetectStored(
  tx: Sql,
  rows: RedetectionRow[],
  vectors: (events: RedetectionRow[]) => boolean,
): Promise<void> {
  const byContributor = new Map<string, RedetectionRow[]>();
  for (const row of rows) {
    const own = byContributor.get(row.contributor_id);
    if (own) own.push(row);
    else byContributor.set(row.contributor_id, [row]);
  }
  for (const [contributorId, events] of byContributor) {
    await detectDuplicates(tx, {
      contributorId,
      changed: events.map((event) => ({ id: event.id, inserted: false, event })),
    }, { recompare: true, vectors: vectors(events) });
  }
}
