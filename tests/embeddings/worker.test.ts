/**
 * The embedding worker against a real database and the OpenAI protocol: retries with backoff
 * through 429 and 500 answers, and a worker killed mid-batch loses and duplicates nothing.
 */
import assert from "node:assert/strict";
import { openDatabase } from "../../server/db/connect.ts";
import { createTestDatabase, openTestDatabase } from "../../dev-support/databases.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../dev-support/fake-openai.ts";
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

/**
 * A worker on the OpenAI protocol against `fake`: batches of 4, backoff from 50 ms, no poll
 * (it is woken), two batches in flight as the provider asks.
 */
function fastRetryingWorker(sql: Sql, fake: FakeOpenAI, o: { timeoutMs?: number } = {}) {
  const provider = new OpenAIProvider({
    apiKey: fake.apiKey,
    baseUrl: fake.baseUrl,
    dimensions: 64,
    timeoutMs: o.timeoutMs,
  });
  assert.equal(provider.concurrency, 2);
  return new EmbeddingWorker({
    sql,
    provider,
    store: new VectorAvailability(sql, { model: provider.model, dimensions: 64 }),
    batchSize: 4,
    initialBackoffMs: 50,
    pollIntervalMs: 60_000,
    log: () => {},
  });
}

Deno.test("[pglite] the worker backs off through 429 and 500 answers and then embeds everything", async () => {
  const db = await openTestDatabase("pglite");
  const fake = startFakeOpenAI();
  try {
    await seedEvents(db.sql, 10, { trusted: true });
    await seedEvents(db.sql, 3, { trusted: false, contributor: "other" });
    const worker = fastRetryingWorker(db.sql, fake);
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

Deno.test("[pglite] a hung provider request holds up only its own batch: the other lane goes on", async () => {
  const db = await openTestDatabase("pglite");
  const fake = startFakeOpenAI();
  try {
    await seedEvents(db.sql, 12, { trusted: true });
    // The first request hangs until the provider's timeout; a worker with one batch in flight
    // would wait it out before embedding anything.
    fake.stallNext(1);
    const worker = fastRetryingWorker(db.sql, fake, { timeoutMs: 6_000 });
    worker.start();
    // Well before the hung request's timeout.
    const soon = Date.now() + 5_000;
    while ((await vectorState(db.sql)).current < 8 && Date.now() < soon) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const meanwhile = await vectorState(db.sql);
    assert.equal(meanwhile.current, 8, "two batches stored while the first request hangs");
    assert.equal(meanwhile.claims, 4, "the hung batch is still claimed");
    const deadline = Date.now() + 20_000;
    while ((await vectorState(db.sql)).current < 12 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await worker.stop();
    assert.deepEqual(await vectorState(db.sql), {
      vectors: 12,
      current: 12,
      events: 12,
      claims: 0,
    });
    const sent = fake.requests.flatMap((r) => r.input);
    assert.equal(sent.length, 16, "the hung batch was sent again after its timeout, nothing else");
    assert.equal(new Set(sent).size, 12);
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

    // Batches go through until the provider hangs; the process dies with batches in flight. The
    // worker has two batches in flight at once, so one or two have been stored by then.
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
    // With two lanes, a third request comes only from a lane whose batch is stored.
    while (fake.requests.length < 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(fake.requests.length >= 3, "the worker went on after storing a batch");
    child.kill("SIGKILL");
    await child.status;

    const db = await openDatabase(location);
    try {
      const died = await vectorState(db.sql);
      assert.ok(died.vectors === 4 || died.vectors === 8, `whole batches stored: ${died.vectors}`);
      assert.ok(died.claims >= 4, "the batches in flight are held by the dead worker");
      const left = 12 - died.vectors;

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
        assert.equal(await worker.runUntilIdle(), left);
        const after = await vectorState(db.sql);
        assert.deepEqual(after, { vectors: 12, current: 12, events: 12, claims: 0 });
        assert.equal(
          restarted.requests.flatMap((r) => r.input).length,
          left,
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
