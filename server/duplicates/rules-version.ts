/**
 * Re-detection after the duplicate rules change. Lookup keys and detected links are written by the
 * rules of the server that stored each event; when the normalisers, the keys or the matcher change
 * what they find, older events' keys would hide them from newer listings. So the rules carry a
 * version, and a server whose rules are newer than the database's looks at every event once
 * again, a batch per transaction, in the background.
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
 * Brings every event's keys, links and group up to `version` (the current rules by default);
 * resumes where a stopped run left off, and stops between batches once `signal` is aborted.
 * Every event is compared again, even one whose keys the new rules leave alone (a matcher change),
 * and, where `vectors` says the vector store is prepared, by its vector too: a pair found by
 * vectors keeps its link. Returns how many events it looked at.
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
