/**
 * Matching is driven by a durable queue: events detected and not yet matched when a server stops
 * stay in `alert_match_queue`, and the next start matches them, once. A push answers before its
 * events are matched (the percolator waits for a pause in the pushes).
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { Percolator } from "../../server/alerts/percolator.ts";
import { startAlerts } from "../../server/alerts/start-alerts.ts";
import { queueForMatching } from "../../server/db/alert-match-queue.ts";
import { openTestDatabase } from "../../dev-support/databases.ts";
import { call } from "./support.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] events detected but not matched when alerts stop are matched at the next start`, async () => {
    const server = await startTestApp(kind, { alertWorker: false, embeddingWorker: "external" });
    const { deps } = server.service;
    const sql = deps.db.sql;
    try {
      const owner = await createApiKey(server, { contributor: "ann", scopes: ["searches:write"] });
      const pusher = await createApiKey(server, { contributor: "lists" });
      await sql`UPDATE api_keys SET trusted = true WHERE id = ${pusher.id}`;
      const saved = await call(server, {
        method: "POST",
        path: "/api/v1/me/searches",
        key: owner.key,
        body: { name: "Zig", q: "zig" },
      });
      assert.equal(saved.status, 201, JSON.stringify(saved.body));
      const events = [{
        external_id: "zig-1",
        source_url: "https://example.org/zig",
        title: "Zig Days",
        starts_at: "2031-06-01T09:00:00Z",
      }];
      assert.equal((await postBatch(server.url, pusher.key, { events })).status, 200);
      await deps.duplicates.settled();
      // Stopped before the pause it waits for: what detection queued stays queued.
      await deps.alerts.stop();
      const hits = () =>
        sql<{ n: number }[]>`
          SELECT count(*)::int AS n FROM alert_hits
          WHERE saved_search_ids @> ARRAY[${saved.body.data.id}::uuid]`.then((r) => r[0].n);
      const [{ queued }] = await sql<{ queued: number }[]>`
        SELECT count(*)::int AS queued FROM alert_match_queue`;
      assert.equal(queued, 1);
      assert.equal(await hits(), 0);

      const restarted = startAlerts(sql, deps.config);
      try {
        await restarted.matched();
        assert.equal(await hits(), 1);
        const [{ left }] = await sql<{ left: number }[]>`
          SELECT count(*)::int AS left FROM alert_match_queue`;
        assert.equal(left, 0);
      } finally {
        await restarted.stop();
      }
    } finally {
      await server.close();
    }
  });
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] matching waits for a pause in the pushes, or for its longest delay`, async () => {
    const db = await openTestDatabase(kind);
    const queued = () =>
      db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM alert_match_queue`.then((r) => r[0].n);
    const pause = 1_000;
    try {
      // A batch was stored a moment ago and none is stored now: the wake that detection's commit
      // gives comes just then, between two batches, and must not count as a pause.
      let lastPushAt = Date.now();
      const percolator = new Percolator({
        sql: db.sql,
        lastPushAt: () => lastPushAt,
        idleMs: pause,
        maxDelayMs: 60_000,
      });
      await queueForMatching(db.sql, [crypto.randomUUID()]);
      percolator.start();
      await new Promise((resolve) => setTimeout(resolve, pause / 5));
      assert.equal(await queued(), 1, "matched before the pushes paused");
      await percolator.settled(5_000);
      assert.equal(await queued(), 0, "not matched once the pushes paused");

      // Pushes never pause: matched once the oldest event waited the longest delay.
      const busyAlways = new Percolator({
        sql: db.sql,
        lastPushAt: () => Date.now(),
        idleMs: pause,
        maxDelayMs: 2 * pause,
      });
      await percolator.stop();
      lastPushAt = 0;
      await queueForMatching(db.sql, [crypto.randomUUID()]);
      busyAlways.start();
      await new Promise((resolve) => setTimeout(resolve, pause / 2));
      assert.equal(await queued(), 1, "matched while pushes went on, before the longest delay");
      await busyAlways.settled(5_000);
      assert.equal(await queued(), 0, "not matched after the longest delay");
      await busyAlways.stop();
    } finally {
      await db.close();
    }
  });
}
