/**
 * Matching is driven by a durable queue: events detected and not yet matched when a server stops
 * stay in `alert_match_queue`, and the next start matches them, once. A push answers before its
 * events are matched (the percolator waits for a pause in the pushes).
 */
import assert from "node:assert/strict";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { Percolator } from "../../server/alerts/percolator.ts";
import { startAlerts } from "../../server/alerts/start-alerts.ts";
import { queueForMatching } from "../../server/db/alert-match-queue.ts";
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
    const percolator = (lastPushAt: () => number, maxDelayMs: number) =>
      new Percolator({ sql: db.sql, lastPushAt, idleMs: pause, maxDelayMs });
    /** Queues an event and starts `matcher`: queued events after `ms`, and once it settled. */
    const queuedAfter = async (matcher: Percolator, ms: number) => {
      await queueForMatching(db.sql, [crypto.randomUUID()]);
      matcher.start();
      await new Promise((resolve) => setTimeout(resolve, ms));
      const early = await queued();
      await matcher.settled(5_000);
      const late = await queued();
      await matcher.stop();
      return [early, late];
    };
    try {
      // A push ended a moment ago and none is in flight: the wake that detection's commit gives
      // comes just then, between two pushes, and must not count as a pause.
      const endedAt = Date.now();
      assert.deepEqual(
        await queuedAfter(percolator(() => endedAt, 60_000), pause / 5),
        [1, 0],
        "matched before the pushes paused, or not once they had",
      );
      // Pushes never pause: matched once the oldest event waited the longest delay.
      assert.deepEqual(
        await queuedAfter(percolator(() => Date.now(), 2 * pause), pause / 2),
        [1, 0],
        "matched before the longest delay while pushes went on, or not after it",
      );
    } finally {
      await db.close();
    }
  });
}
