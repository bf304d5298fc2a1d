/**
 * The embedding worker against a real database and the OpenAI protocol: retries with backoff
 * through 429 and 500 answers, and a worker killed mid-batch loses and duplicates nothing.
 */
import assert from "node:assert/strict";
import { openDatabase } from "../../server/db/connect.ts";
import { createTestDatabase, openTestDatabase } from "../support/databases.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { OpenAIProvider } from "../../server/embeddings/openai-provider.ts";
import { VectorAvailability } from "../../server/embeddings/vector-availability.ts";
import { EmbeddingWorker } from "../../server/embeddings/worker.ts";
import { seedEvents } from "../search/seed.ts";
import type { Sql } from "postgres";

async function vectorState(sql: Sql) {
  const [row] = await sql<{ vectors: number; current: number; events: number; claims: number }[]>`
    SELECT (SELECT count(*)::int FROM event_embeddings) AS vectors,
           (SELECT count(DISTINCT v.event_id)::int FROM event_embeddings v
              JOIN events e ON e.id = v.event_id AND e.content_hash = v.content_hash) AS current,
           (SELECT count(*)::int FROM events) AS events,
           (SELECT count(*)::int FROM embedding_claims) AS claims`;
  return row;
}

Deno.test("[pglite] the worker backs off through 429 and 500 answers and then embeds everything", async () => {
  const db = await openTestDatabase("pglite");
  const fake = startFakeOpenAI();
  try {
    await seedEvents(db.sql, 10, { trusted: true });
    await seedEvents(db.sql, 3, { trusted: false, contributor: "other" });
    const provider = new OpenAIProvider({
      apiKey: fake.apiKey,
      baseUrl: fake.baseUrl,
      dimensions: 64,
    });
    const store = new VectorAvailability(db.sql, { model: provider.model, dimensions: 64 });
    const worker = new EmbeddingWorker({
      sql: db.sql,
      provider,
      store,
      batchSize: 4,
      initialBackoffMs: 50,
      pollIntervalMs: 60_000,
      log: () => {},
    });
    fake.failNext(2, { status: 500 });
    fake.failNext(1, { status: 429, retryAfter: 1 });
    const started = Date.now();
    worker.start();
    const deadline = Date.now() + 20_000;
    while ((await vectorState(db.sql)).current < 10 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await worker.stop();
    const state = await vectorState(db.sql);
    assert.equal(state.vectors, 10, "one vector per trusted event, none for the untrusted");
    assert.equal(state.current, 10);
    assert.equal(state.claims, 0);
    // Retry-After: 1 was honoured before anything succeeded.
    assert.ok(Date.now() - started >= 1000);
    assert.equal(fake.requests.length, 3 + 3, "three failures, then three batches of 4, 4, 2");
  } finally {
    await fake.close();
    await db.close();
  }
});

Deno.test("[pglite] a worker killed mid-batch leaves exactly one current vector per event after restart", async () => {
  const location = await createTestDatabase("pglite");
  const fake = startFakeOpenAI();
  try {
    const seeding = await openDatabase(location);
    await seedEvents(seeding.sql, 12, { trusted: true });
    await seeding.close();

    // The first batch goes through; the second hangs at the provider, as the process dies.
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../../server/embeddings/worker-main.ts", import.meta.url).pathname,
        "--batch-size",
        "4",
        "--claim-seconds",
        "2",
      ],
      env: {
        DATA_DIR: location.dataDir,
        DATABASE_URL: "",
        OPENAI_API_KEY: fake.apiKey,
        OPENAI_BASE_URL: fake.baseUrl,
        EMBEDDINGS_DIMENSIONS: "64",
      },
      stdout: "null",
      stderr: "null",
    }).spawn();
    const deadline = Date.now() + 30_000;
    while (fake.requests.length < 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    fake.stallNext(1000);
    while (fake.requests.length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(fake.requests.length >= 2, "the worker reached its second batch");
    child.kill("SIGKILL");
    await child.status;

    const db = await openDatabase(location);
    try {
      const died = await vectorState(db.sql);
      assert.equal(died.vectors, 4, "the first batch was stored");
      assert.equal(died.claims, 4, "the second batch is held by the dead worker");

      await fake.close();
      const restarted = startFakeOpenAI();
      try {
        const provider = new OpenAIProvider({
          apiKey: restarted.apiKey,
          baseUrl: restarted.baseUrl,
          dimensions: 64,
        });
        const worker = new EmbeddingWorker({
          sql: db.sql,
          provider,
          store: new VectorAvailability(db.sql, { model: provider.model, dimensions: 64 }),
          batchSize: 4,
          log: () => {},
        });
        // The dead worker's claims expire after their two seconds; then nothing is left behind.
        await new Promise((r) => setTimeout(r, 2100));
        assert.equal(await worker.runUntilIdle(), 8);
        const after = await vectorState(db.sql);
        assert.deepEqual(after, { vectors: 12, current: 12, events: 12, claims: 0 });
        assert.equal(
          restarted.requests.flatMap((r) => r.input).length,
          8,
          "no event embedded twice",
        );
      } finally {
        await restarted.close();
      }
    } finally {
      await db.close();
    }
  } finally {
    await fake.close().catch(() => {});
    await location.drop();
  }
});
