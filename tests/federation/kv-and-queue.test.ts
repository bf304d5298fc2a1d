/**
 * Fedify's KvStore and MessageQueue over our database behave as Fedify's in-memory ones do, on
 * both databases: values with expiry, compare-and-swap, listing by key prefix; messages delivered
 * once, after their delay, one ordering key at a time in order.
 */
import assert from "node:assert/strict";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { migrate } from "../../server/db/migrate.ts";
import { DatabaseKvStore } from "../../server/federation/kv-store.ts";
import { DatabaseMessageQueue } from "../../server/federation/message-queue.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the key-value store keeps, expires, swaps and lists values`, async () => {
    const db = await openTestDatabase(kind);
    try {
      await migrate(db.sql);
      const kv = new DatabaseKvStore(db.sql);
      assert.equal(await kv.get(["a"]), undefined);
      await kv.set(["a", "b"], { n: 1 });
      await kv.set(["a", "b", "c"], "deeper");
      await kv.set(["a", "bc"], 2);
      await kv.set(["z"], [1, 2]);
      assert.deepEqual(await kv.get(["a", "b"]), { n: 1 });
      assert.deepEqual(await kv.get(["z"]), [1, 2]);

      const listed = [];
      for await (const e of kv.list(["a", "b"])) listed.push(e);
      // The key itself and the keys under it; not ["a","bc"], whose text merely begins alike.
      assert.deepEqual(listed.map((e) => e.key.join("/")).sort(), ["a/b", "a/b/c"]);
      const all = [];
      for await (const e of kv.list()) all.push(e.key);
      assert.equal(all.length, 4);

      await kv.set(["short"], "lived", { ttl: Temporal.Duration.from({ milliseconds: 50 }) });
      assert.equal(await kv.get(["short"]), "lived");
      await new Promise((resolve) => setTimeout(resolve, 120));
      assert.equal(await kv.get(["short"]), undefined);

      assert.equal(await kv.cas(["a", "b"], { n: 2 }, { n: 3 }), false);
      assert.equal(await kv.cas(["a", "b"], { n: 1 }, { n: 3 }), true);
      assert.deepEqual(await kv.get(["a", "b"]), { n: 3 });
      assert.equal(await kv.cas(["new"], undefined, "made"), true);
      assert.equal(await kv.cas(["new"], undefined, "again"), false);
      // An expired value counts as absent.
      assert.equal(await kv.cas(["short"], undefined, "reborn"), true);
      assert.equal(await kv.get(["short"]), "reborn");

      await kv.delete(["a", "b"]);
      assert.equal(await kv.get(["a", "b"]), undefined);
    } finally {
      await db.close();
    }
  });

  Deno.test(`[${kind}] the queue delivers each message once, after its delay, in key order`, async () => {
    const db = await openTestDatabase(kind);
    try {
      await migrate(db.sql);
      const queue = new DatabaseMessageQueue(db.sql, { pollMs: 50 });
      const got: { m: unknown; at: number }[] = [];
      const stop = new AbortController();
      const started = Date.now();
      const listening = queue.listen(async (m) => {
        got.push({ m, at: Date.now() - started });
        // Slow handling: a second message of the same key must not start meanwhile.
        if ((m as { slow?: boolean }).slow) await new Promise((r) => setTimeout(r, 100));
      }, { signal: stop.signal });

      await queue.enqueue({ id: "late" }, { delay: Temporal.Duration.from({ milliseconds: 400 }) });
      await queue.enqueueMany([{ id: "k1", slow: true }, { id: "k2" }, { id: "k3" }], {
        orderingKey: "object-1",
      });
      await queue.enqueue({ id: "free" });
      const deadline = Date.now() + 10_000;
      while (got.length < 5 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      stop.abort();
      await listening;

      const ids = got.map((g) => (g.m as { id: string }).id);
      assert.deepEqual([...ids].sort(), ["free", "k1", "k2", "k3", "late"]);
      const keyed = ids.filter((id) => id.startsWith("k"));
      assert.deepEqual(keyed, ["k1", "k2", "k3"]);
      const late = got.find((g) => (g.m as { id: string }).id === "late")!;
      assert.ok(late.at >= 380, `delivered after ${late.at} ms`);
      assert.deepEqual(await queue.getDepth(), { queued: 0, ready: 0 });
    } finally {
      await db.close();
    }
  });
}
