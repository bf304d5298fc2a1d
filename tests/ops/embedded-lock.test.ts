/**
 * The embedded database's directory is held by one process at a time: PGlite takes no lock of its
 * own, and two writers corrupt it. A second opening is refused with a message saying what to do,
 * and the directory is free again once the first is closed.
 */
import assert from "node:assert/strict";
import { openDatabase } from "../../server/db/connect.ts";
import { ConfigError } from "../../server/config.ts";

Deno.test("[pglite] a data directory in use is refused, and free again once closed", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "events-lock-" });
  try {
    const first = await openDatabase({ dataDir });
    try {
      await assert.rejects(
        () => openDatabase({ dataDir }),
        (err: Error) =>
          err instanceof ConfigError && /is in use by another process/.test(err.message) &&
          /DATA_DIR/.test(err.message),
      );
      assert.equal((await first.sql`SELECT 1 AS one`)[0].one, 1, "the first goes on");
    } finally {
      await first.close();
    }
    const again = await openDatabase({ dataDir });
    await again.close();
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
