/**
 * Detection again for listings that just got a vector: at ingestion they had none, so the pairs
 * only their vectors reveal are found now, by the same detection (its links, its groups), in a
 * transaction of its own.
 */
import type { Sql } from "postgres";
import { eventsInAiSearch } from "../db/vector-candidates.ts";
import { detectStored } from "./detect-stored.ts";

/**
 * Detects the duplicates of those of `eventIds` now in AI search, reading their vectors; the
 * others (a vector not stored, a key untrusted meanwhile) are left as ingestion detected them.
 */
export async function detectEmbedded(sql: Sql, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await sql.begin(async (transaction) => {
    // postgres.js types a transaction apart from the pool, though both run the same queries.
    const tx = transaction as unknown as Sql;
    await detectStored(tx, await eventsInAiSearch(tx, eventIds), {
      recompare: true,
      vectors: () => true,
    });
  });
}
