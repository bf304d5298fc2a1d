/**
 * Re-detection after the duplicate rules change: older events' keys and links were written by
 * older rules and would hide them from newer listings. A server whose rules are newer than the
 * database's looks at every event once again, a batch per transaction, in the background.
 */
import type { Sql } from "postgres";
import { claimRedetection } from "../db/duplicate-rules.ts";
import { underDuplicatesLock } from "../db/duplicate-links.ts";
import { detectStored } from "./detect-duplicates.ts";

/**
 * Raise this when a change to server/duplicates/ (normalisers, lookup keys, matcher) changes the
 * keys an event gets or the pairs the matcher accepts.
 */
export const DUPLICATE_RULES_VERSION = 5;

const BATCH = 200;

/**
 * Brings every event's keys, links and group up to `version` (the current rules by default),
 * comparing each again, by its vector too where `vectors` says the store is prepared; resumes
 * where a stopped run left off, stops between batches once `signal` is aborted. Returns how many
 * events it looked at.
 */
export async function redetectUnderCurrentRules(
  sql: Sql,
  o: {
    version?: number;
    batch?: number;
    signal?: AbortSignal;
    vectors?: () => Promise<boolean>;
  } = {},
): Promise<number> {
  const version = o.version ?? DUPLICATE_RULES_VERSION;
  const vectors = (await o.vectors?.()) ?? false;
  let seen = 0;
  // Stopped between batches: each batch is a transaction of its own, and the next run resumes.
  while (!o.signal?.aborted) {
    const done = await underDuplicatesLock(sql, async (tx) => {
      const rows = await claimRedetection(tx, { version, limit: o.batch ?? BATCH });
      await detectStored(tx, rows, { recompare: true, vectors: () => vectors });
      return rows.length;
    });
    if (done === 0) return seen;
    seen += done;
  }
  return seen;
}
