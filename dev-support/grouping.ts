/**
 * Duplicate detection runs after a push's commit and reads never wait for it: a test (or script)
 * that reads groups right after a push waits here, polling, until nothing waits for detection.
 */
import type { Sql } from "postgres";
import { countQueued } from "../server/db/duplicate-queue.ts";

/** Resolves once no pushed event waits for detection; throws after `timeoutMs`. */
export async function untilGrouped(sql: Sql, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const queued = await countQueued(sql);
    if (queued === 0) return;
    if (Date.now() > deadline) {
      throw new Error(
        `Cannot see pushes grouped: ${queued} events still wait after ${timeoutMs} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
