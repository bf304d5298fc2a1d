/**
 * Refuses requests that write while the embedded database's disk is nearly full (503 with
 * Retry-After, before anything is read or stored); reads go on. MCP posts only read.
 */
import type { MiddlewareHandler } from "hono";
import type { StorageGuard } from "../db/disk-space.ts";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

export function refuseWritesWhenDiskLow(storage: StorageGuard): MiddlewareHandler {
  return async (c, next) => {
    if (!READS.has(c.req.method) && c.req.path !== "/mcp") storage.assertRoomToWrite();
    await next();
  };
}
