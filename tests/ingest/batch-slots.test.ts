/**
 * Pushed batches never hold the whole connection pool: reads are answered while batches wait.
 * Found by scripts/bench-load.ts: with 20 keys pushing, batches held all ten connections and the
 * site's pages waited behind them (p50 330 ms instead of 7).
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { BatchSlots } from "../../server/events/batch-slots.ts";
import { testBackends } from "../../dev-support/databases.ts";
import { sampleEvent } from "../support/events.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { testFetch } from "../../dev-support/in-process-fetch.ts";

Deno.test("batch slots run at most their size at once, in the order asked", async () => {
  const slots = new BatchSlots(2);
  const started: number[] = [];
  const finish: (() => void)[] = [];
  const runs = [0, 1, 2, 3].map((i) =>
    slots.run(async () => {
      started.push(i);
      await new Promise<void>((resolve) => finish[i] = resolve);
      return i;
    })
  );
  await Promise.resolve();
  assert.deepEqual(started, [0, 1]);
  assert.equal(slots.waiting, 2);
  finish[1]();
  await runs[1];
  assert.deepEqual(started, [0, 1, 2]);
  assert.equal(slots.busy, 2);
  finish[0]();
  finish[2]();
  await runs[2];
  finish[3]();
  assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3]);
  assert.equal(slots.busy, 0);
});

Deno.test("a batch that fails gives its slot back", async () => {
  const slots = new BatchSlots(1);
  await assert.rejects(slots.run(() => Promise.reject(new Error("refused"))), /refused/);
  assert.equal(await slots.run(() => Promise.resolve("next")), "next");
  assert.equal(slots.busy, 0);
});

Deno.test("batches get half the pool, at least one slot", () => {
  assert.equal(BatchSlots.forPool(10).size, 5);
  assert.equal(BatchSlots.forPool(1).size, 1);
});

for (const kind of testBackends()) {
  Deno.test(`[${kind}] more batches at once than slots are all stored`, async () => {
    const server = await startTestApp(kind);
    try {
      const { db, batchSlots } = server.service.deps;
      assert.equal(batchSlots.size, Math.max(1, db.poolSize / 2));
      const { key } = await createApiKey(server, { rate_limit_per_minute: 1000 });
      const replies = await Promise.all(Array.from(
        { length: batchSlots.size * 3 },
        (_, i) =>
          postBatch(server.url, key, { events: [sampleEvent(2 * i), sampleEvent(2 * i + 1)] }),
      ));
      for (const reply of replies) {
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.deepEqual(reply.body.data, { inserted: 2, updated: 0, errors: [] });
      }
      const [{ n }] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM events`;
      assert.equal(n, batchSlots.size * 6);
    } finally {
      await server.close();
    }
  });
}

// PGlite is one session: nothing outside the server can hold a lock while the server reads.
if (testBackends().includes("postgres")) {
  Deno.test("[postgres] reads are answered while every batch slot waits on the database", async () => {
    const server = await startTestApp("postgres");
    // Two connections: one holds the lock, the other watches the batches wait.
    const outside = postgres(server.location.databaseUrl!, { max: 2, onnotice: () => {} });
    const locker = await outside.reserve();
    let locked = false;
    try {
      const { db } = server.service.deps;
      const { key } = await createApiKey(server, { rate_limit_per_minute: 1000 });
      // Inserts wait for this lock; reads do not.
      await locker`BEGIN`;
      await locker`LOCK TABLE events IN SHARE MODE`;
      locked = true;
      const pushes = Array.from(
        { length: db.poolSize + 2 },
        (_, i) => postBatch(server.url, key, { events: [sampleEvent(i)] }),
      );
      await waitFor(async () => {
        const [{ n }] = await outside<{ n: number }[]>`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`;
        return n >= server.service.deps.batchSlots.size;
      });
      // Before the slots, the waiting batches held every connection: this read waited for them.
      const read = testFetch(`${server.url}/api/v1/events?limit=1`);
      const answer = await Promise.race([read, sleep(10_000).then(() => null)]);
      assert.ok(answer, "the read got no answer in 10 s while batches waited on a lock");
      assert.equal(answer.status, 200);
      await answer.body?.cancel();
      await locker`COMMIT`;
      locked = false;
      for (const reply of await Promise.all(pushes)) {
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
      }
      await read;
    } finally {
      if (locked) await locker`ROLLBACK`;
      locker.release();
      await outside.end();
      await server.close();
    }
  });
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await sleep(50);
  }
  throw new Error("Cannot see the batches waiting on the lock within 10 s");
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
