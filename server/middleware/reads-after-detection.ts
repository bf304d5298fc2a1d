/**
 * Reads wait for the duplicate detection of the batches pushed before them (on PostgreSQL it runs
 * after a batch commits: server/duplicates/duplicate-detector.ts), so that a listing read after a
 * push returns shows one entry per group. Idle, the wait is nothing; it is bounded, so a slow
 * detection delays a read but never fails it. Health checks and writes never wait: a push waiting
 * for the previous push's detection would undo the point of detecting after commit.
 */
import type { MiddlewareHandler } from "hono";
import type { DuplicateDetector } from "../duplicates/duplicate-detector.ts";

const READS = new Set(["GET", "HEAD"]);

export function readsAfterDetection(detector: DuplicateDetector): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path;
    if ((READS.has(c.req.method) && path !== "/healthz") || path === "/mcp") {
      await detector.settled();
    }
    await next();
  };
}
