/**
 * startAiSearch, the one start of AI search for the server, the worker process and tests: its
 * error policy, and the one direct call that wakes the embedding worker.
 */
import assert from "node:assert/strict";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { startFakeOpenAI } from "../../dev-support/fake-openai.ts";
import { seedEvents } from "../search/seed.ts";
import { ConfigError } from "../../server/config.ts";
import { openDatabase } from "../../server/db/connect.ts";
import { EMBEDDING_WORK_CHANNEL } from "../../server/embeddings/ai-search.ts";
import { startAiSearch } from "../../server/embeddings/start-ai-search.ts";

Deno.test("[pglite] a wrong embedding setting stops the start with a ConfigError naming it", async () => {
  const db = await openTestDatabase("pglite");
  try {
    await assert.rejects(
      startAiSearch(db, { provider: { provider: "openai" }, runWorker: true }),
      (err) => err instanceof ConfigError && /OPENAI_API_KEY/.test(err.message),
    );
    await assert.rejects(
      startAiSearch(db, { provider: { provider: "local", dimensions: 3 }, runWorker: true }),
      (err) => err instanceof ConfigError && /EMBEDDINGS_DIMENSIONS=3/.test(err.message),
    );
  } finally {
    await db.close();
  }
});

if (testBackends().includes("postgres")) {
  Deno.test("[postgres] without pgvector AI search starts unavailable, says why, and is reported", async () => {
    const db = await openTestDatabase("postgres");
    const fake = startFakeOpenAI();
    const lines: string[] = [];
    const ai = await startAiSearch(db, {
      provider: { provider: "openai", openaiApiKey: fake.apiKey, openaiBaseUrl: fake.baseUrl },
      runWorker: true,
      log: (line) => lines.push(line),
    });
    try {
      assert.equal(lines.length, 1);
      assert.match(lines[0], /^AI search is unavailable: .*pgvector/);
      const health = await ai.health();
      assert.equal(health.available, false);
      assert.match(health.reason!, /pgvector/);
    } finally {
      await ai.stop();
      await fake.close();
      await db.close();
    }
  });
}

Deno.test("[pglite] wakeWorker makes the worker in this process embed new work at once", async () => {
  const db = await openTestDatabase("pglite");
  const fake = startFakeOpenAI();
  const ai = await startAiSearch(db, {
    provider: fake.embeddingSettings(32),
    runWorker: true,
    // Only a wake can bring the worker back within this test.
    worker: { pollIntervalMs: 3_600_000, log: () => {} },
  });
  try {
    // Let the worker find nothing and go to sleep first.
    while (fake.requests.length > 0 || (await ai.health()).waiting_for_vectors !== 0) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 200));
    await seedEvents(db.sql, 3, { trusted: true });
    ai.wakeWorker();
    for (let i = 0; i < 400 && (await ai.health()).in_ai_search !== 3; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const health = await ai.health();
    assert.equal(health.in_ai_search, 3);
    assert.equal(health.waiting_for_vectors, 0);
  } finally {
    await ai.stop();
    await fake.close();
    await db.close();
  }
});

if (testBackends().includes("postgres")) {
  Deno.test("[postgres] wakeWorker reaches a worker in another process through NOTIFY", async () => {
    const server = await openTestDatabase("postgres");
    // A second connection pool stands for the worker's process.
    const url = new URL(Deno.env.get("TEST_DATABASE_URL")!);
    const [{ db: name }] = await server.sql<{ db: string }[]>`SELECT current_database() AS db`;
    url.pathname = `/${name}`;
    const workerDb = await openDatabase({ databaseUrl: url.toString(), dataDir: "" });
    const fake = startFakeOpenAI();
    const ai = await startAiSearch(server, {
      provider: { provider: "openai", openaiApiKey: fake.apiKey, openaiBaseUrl: fake.baseUrl },
      runWorker: false,
      log: () => {},
    });
    try {
      const woken = Promise.withResolvers<void>();
      const { unlisten } = await workerDb.sql.listen(EMBEDDING_WORK_CHANNEL, () => woken.resolve());
      ai.wakeWorker();
      const timeout = setTimeout(() => woken.reject(new Error("no notification")), 10_000);
      await woken.promise;
      clearTimeout(timeout);
      await unlisten();
    } finally {
      await ai.stop();
      await fake.close();
      await workerDb.close();
      await server.close();
    }
  });
}
