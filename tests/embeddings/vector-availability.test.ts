/**
 * The vector store's state is checked once and remembered: "unavailable" (PostgreSQL without
 * pgvector) for `recheckMs`, "available" for good; callers that leave `recheckMs` unset get the
 * default window, not a check on every search.
 */
import assert from "node:assert/strict";
import { VectorAvailability } from "../../server/embeddings/vector-availability.ts";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the vector store's state is remembered between searches`, async () => {
    const db = await openTestDatabase(kind);
    try {
      for (const recheckMs of [undefined, 60_000]) {
        const availability = new VectorAvailability(db.sql, {
          model: "test-model",
          dimensions: 8,
          recheckMs,
        });
        const first = await availability.status();
        // The same answer object: nothing was asked of the database again.
        assert.equal(await availability.status(), first);
      }
      const eager = new VectorAvailability(db.sql, {
        model: "test-model",
        dimensions: 8,
        recheckMs: 0,
      });
      const first = await eager.status();
      if (!first.available) assert.notEqual(await eager.status(), first);
    } finally {
      await db.close();
    }
  });
}
