import assert from "node:assert/strict";
import { openTestDatabase, testBackends } from "../support/databases.ts";
import { openDatabase } from "../../server/db/connect.ts";
import {
  embeddingChangeSignals,
  listenForEmbeddingWork,
} from "../../server/embeddings/change-signals.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] an upsert or a trust decision wakes the worker in this process`, async () => {
    const db = await openTestDatabase(kind);
    try {
      let wakes = 0;
      const signals = embeddingChangeSignals(db, () => wakes++);
      signals.eventsWritten(["x"]);
      signals.keyTrustChanged("k");
      assert.equal(wakes, 2);
    } finally {
      await db.close();
    }
  });
}

if (testBackends().includes("postgres")) {
  Deno.test("[postgres] a worker in another process is woken through LISTEN/NOTIFY", async () => {
    const server = await openTestDatabase("postgres");
    // Two connections stand for two processes: the server that ingests and the worker.
    const url = new URL(Deno.env.get("TEST_DATABASE_URL")!);
    const [{ db: name }] = await server.sql<{ db: string }[]>`SELECT current_database() AS db`;
    url.pathname = `/${name}`;
    const workerDb = await openDatabase({ databaseUrl: url.toString(), dataDir: "" });
    try {
      const woken = Promise.withResolvers<void>();
      const unlisten = await listenForEmbeddingWork(workerDb, () => woken.resolve());
      embeddingChangeSignals(server, () => {}).keyTrustChanged("k");
      const timeout = setTimeout(() => woken.reject(new Error("no notification")), 5000);
      await woken.promise;
      clearTimeout(timeout);
      await unlisten();
    } finally {
      await workerDb.close();
      await server.close();
    }
  });
}
