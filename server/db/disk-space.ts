/**
 * Room on the embedded database's disk. PGlite meeting a full disk does not fail a write: it
 * hangs inside WebAssembly, taking every request with it, and stays hung when space comes back
 * (seen: an 80 MB file system filled by pushes, the server answering nothing, healthz included,
 * until killed). So writes stop before the disk is full: below a reserve of free space, requests
 * that write are refused with 503 and the embedding worker waits, while reads (whose own small
 * writes, rate-limit counts and sessions, fit in the reserve) go on. A real PostgreSQL server
 * reports a full disk as errors itself and is not watched here.
 */
import { statfsSync } from "node:fs";
import { AppError } from "../errors.ts";

/** What /healthz says of the disk. */
export interface StorageHealth {
  free_bytes: number;
  min_free_bytes: number;
  /** Whether writes are taken: false while free space is below the reserve. */
  writes_accepted: boolean;
}

/** How long a refused client is told to wait. */
const RETRY_AFTER_SECONDS = 60;

/** Watches the free space of the file system holding a data directory. */
export class StorageGuard {
  constructor(readonly dataDir: string, readonly minFreeBytes: number) {}

  /** Free bytes for this user on the data directory's file system (13 µs a call). */
  freeBytes(): number {
    const fs = statfsSync(this.dataDir);
    return fs.bavail * fs.bsize;
  }

  roomToWrite(): boolean {
    return this.freeBytes() >= this.minFreeBytes;
  }

  /** Throws the 503 a write gets while the disk is nearly full. */
  assertRoomToWrite(): void {
    const free = this.freeBytes();
    if (free >= this.minFreeBytes) return;
    throw new AppError(
      "service_unavailable",
      `The server's disk is nearly full (${mib(free)} MiB free; writes need ${
        mib(this.minFreeBytes)
      } MiB): nothing was stored. Send it again later; operators: free disk space where ` +
        "DATA_DIR is (reads go on meanwhile).",
      { retryAfterSeconds: RETRY_AFTER_SECONDS },
    );
  }

  health(): StorageHealth {
    const free = this.freeBytes();
    return {
      // Whole MiB: the exact count moves with every write of any process on the disk, and the
      // answer's ETag with it, so a monitor's If-None-Match would almost never get its 304.
      free_bytes: Math.floor(free / 2 ** 20) * 2 ** 20,
      min_free_bytes: this.minFreeBytes,
      writes_accepted: free >= this.minFreeBytes,
    };
  }
}

/** Whole MiB, rounded down: 127.7 MiB free is not "128 MiB free" beside a 128 MiB need. */
function mib(bytes: number): string {
  return String(Math.floor(bytes / 2 ** 20));
}
