/**
 * The per-key rate limit: draft RateLimit headers on every authenticated response, 429 past the
 * limit, per-key limits, and one shared limit for several server instances on one database.
 */
import assert from "node:assert/strict";
import { createTestDatabase, openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestApp } from "../../dev-support/test-server.ts";
import { generateApiKey } from "../../shared/api-key-format.ts";
import { loadConfig } from "../../server/config.ts";
import { createApp } from "../../server/app.ts";
import { BatchSlots } from "../../server/events/batch-slots.ts";
import { InFlight } from "../../server/in-flight.ts";
import { startAiSearch } from "../../server/embeddings/start-ai-search.ts";
import { LocalProvider } from "../../server/embeddings/local-provider.ts";
import { get, postEvents, type Reply, send } from "./support/http.ts";
import { freshEvent } from "./support/batches.ts";
import { startServerProcess } from "./support/server-process.ts";
import { Alerts } from "../../server/alerts/alerts.ts";
import { DuplicateDetector } from "../../server/duplicates/duplicate-detector.ts";

const POLICY = /^"default";q=(\d+);w=(\d+)$/;
const STATE = /^"default";r=(\d+);t=(\d+)$/;

/** The limit, its window (60 s unless a test set another) and remaining count a reply announces. */
function rateHeaders(
  reply: Reply,
  window = 60,
): { limit: number; remaining: number; reset: number } {
  const policy = POLICY.exec(reply.headers.get("RateLimit-Policy") ?? "");
  const state = STATE.exec(reply.headers.get("RateLimit") ?? "");
  assert.ok(policy, `RateLimit-Policy is ${reply.headers.get("RateLimit-Policy")}`);
  assert.equal(Number(policy[2]), window, `RateLimit-Policy is ${policy[0]}`);
  assert.ok(state, `RateLimit is ${reply.headers.get("RateLimit")}`);
  return { limit: Number(policy[1]), remaining: Number(state[1]), reset: Number(state[2]) };
}

/** Asserts a 429 with Retry-After and retry_after that agree. */
function assertRateLimited(reply: Reply, window = 60): void {
  assert.equal(reply.status, 429, JSON.stringify(reply.body));
  const retryAfter = Number(reply.headers.get("Retry-After"));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${retryAfter}`);
  assert.equal(reply.body.retry_after, retryAfter);
  assert.equal(typeof reply.body.message, "string");
  assert.equal(rateHeaders(reply, window).remaining, 0);
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] each key is rate limited, with the draft headers`, async (t) => {
    const server = await startTestApp(kind);
    try {
      await t.step(
        "a new key's responses announce the default policy of 60 per minute",
        async () => {
          const { key } = await createApiKey(server);
          const started = Date.now();
          const first = await postEvents(server.url, key, { events: [freshEvent()] });
          assert.equal(first.status, 200);
          assert.deepEqual(rateHeaders(first).limit, 60);
          assert.equal(rateHeaders(first).remaining, 59);
          const second = await postEvents(server.url, key, { events: [] });
          assert.equal(second.status, 400);
          // GCRA gives a request back every second: on a machine slow enough to take a second
          // between the two, the second request finds one more.
          const slow = Date.now() - started >= 1_000;
          assert.ok(
            [58, ...(slow ? [59] : [])].includes(rateHeaders(second).remaining),
            `remaining ${rateHeaders(second).remaining} after ${Date.now() - started} ms`,
          );
        },
      );

      await t.step("a 403 of an authenticated key carries the headers too", async () => {
        const { key } = await createApiKey(server, { scopes: ["admin"] });
        const reply = await postEvents(server.url, key, { events: [freshEvent()] });
        assert.equal(reply.status, 403);
        assert.equal(rateHeaders(reply).limit, 60);
      });

      await t.step("one key's exhausted limit does not affect another key", async () => {
        const { key } = await createApiKey(server);
        const reply = await postEvents(server.url, key, { events: [freshEvent()] });
        assert.equal(reply.status, 200);
      });

      await t.step("a key with its own limit is held to it", async () => {
        const { key } = await createApiKey(server, { rate_limit_per_minute: 3 });
        const replies = [];
        for (let i = 0; i < 3; i++) {
          replies.push(await postEvents(server.url, key, { events: [freshEvent()] }));
        }
        assert.deepEqual(replies.map((r) => r.status), [200, 200, 200]);
        assert.deepEqual(replies.map((r) => rateHeaders(r).remaining), [2, 1, 0]);
        assert.deepEqual(replies.map((r) => rateHeaders(r).limit), [3, 3, 3]);
        const refused = await postEvents(server.url, key, { events: [freshEvent()] });
        assertRateLimited(refused);
        // One request frees up every 20 s at 3 per minute.
        const retryAfter = Number(refused.headers.get("Retry-After"));
        assert.ok(retryAfter > 10 && retryAfter <= 20, `Retry-After ${retryAfter}`);
      });

      await t.step("a refused request stores nothing", async () => {
        const { key } = await createApiKey(server, { rate_limit_per_minute: 1 });
        assert.equal((await postEvents(server.url, key, { events: [freshEvent()] })).status, 200);
        const e = freshEvent();
        assertRateLimited(await postEvents(server.url, key, { events: [e] }));
        const found = await get(
          server.url,
          `/api/v1/events?external_id=${e.external_id}&from=1900-01-01`,
        );
        assert.deepEqual(found.body.data, []);
      });
    } finally {
      await server.close();
    }
  });
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the request past a key's quota within the window gets 429 with Retry-After`, async () => {
    // A window of an hour: 60 requests refill one a minute, so even a burst slowed down by a busy
    // machine cannot earn a 61st (at 60 a minute, one more frees up every second).
    const window = 3600;
    const server = await startTestApp(kind, { rateLimitWindowSeconds: window });
    try {
      const { key } = await createApiKey(server);
      const burst = await Promise.all(
        Array.from({ length: 60 }, () => postEvents(server.url, key, { events: [] })),
      );
      assert.deepEqual(burst.map((r) => r.status), Array(60).fill(400));
      assert.deepEqual(burst.map((r) => rateHeaders(r, window).limit), Array(60).fill(60));
      assert.equal(Math.min(...burst.map((r) => rateHeaders(r, window).remaining)), 0);
      const refused = await postEvents(server.url, key, { events: [freshEvent()] });
      assertRateLimited(refused, window);
      const again = await postEvents(server.url, key, { events: [freshEvent()] });
      assertRateLimited(again, window);
    } finally {
      await server.close();
    }
  });
}

/** Posts `count` requests with `key`, alternating between the servers, one after another. */
async function alternate(urls: string[], key: string, count: number): Promise<Reply[]> {
  const replies = [];
  for (let i = 0; i < count; i++) {
    replies.push(await postEvents(urls[i % urls.length], key, { events: [freshEvent()] }));
  }
  return replies;
}

/** Checks that a limit of 6 is shared by the servers at `urls`. */
async function assertSharedLimit(urls: string[], adminKey: string): Promise<void> {
  const { key } = await createApiKey({ url: urls[0], adminKey }, { rate_limit_per_minute: 6 });
  const allowed = await alternate(urls, key, 6);
  assert.deepEqual(allowed.map((r) => r.status), Array(6).fill(200));
  assert.deepEqual(allowed.map((r) => rateHeaders(r).remaining), [5, 4, 3, 2, 1, 0]);
  for (const url of urls) {
    assertRateLimited(await postEvents(url, key, { events: [freshEvent()] }));
  }
}

if (testBackends().includes("postgres")) {
  Deno.test("[postgres] two server processes on one database share one limit", async () => {
    const location = await createTestDatabase("postgres");
    const adminKey = generateApiKey();
    const env = {
      DATABASE_URL: location.databaseUrl!,
      ADMIN_API_KEY: adminKey,
      EMBEDDINGS_WORKER: "external",
    };
    const servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    try {
      assert.notEqual(servers[0].url, servers[1].url);
      for (const s of servers) assert.equal((await get(s.url, "/healthz")).status, 200);
      await assertSharedLimit(servers.map((s) => s.url), adminKey);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await location.drop();
    }
  });
}

Deno.test("[pglite] two app instances on one database share one limit", async () => {
  // One process may own a PGlite directory, so the two instances share one open database.
  const db = await openTestDatabase("pglite");
  const adminKey = generateApiKey();
  const config = { ...loadConfig({ ADMIN_API_KEY: adminKey }), logRequests: false };
  const servers = await Promise.all([0, 1].map(async () => {
    const ai = await startAiSearch(db, { provider: new LocalProvider(), runWorker: false });
    const duplicates = new DuplicateDetector(db.sql);
    const app = await createApp({
      db,
      config,
      ai,
      batchSlots: BatchSlots.forPool(db.poolSize),
      pushes: new InFlight(),
      requests: new InFlight(),
      duplicates,
      alerts: new Alerts(db.sql, { worker: null }),
    });
    const { promise, resolve } = Promise.withResolvers<Deno.NetAddr>();
    const server = Deno.serve({
      port: 0,
      hostname: "127.0.0.1",
      onListen: (addr) => resolve(addr as Deno.NetAddr),
    }, app.fetch);
    const addr = await promise;
    return { url: `http://127.0.0.1:${addr.port}`, server, duplicates };
  }));
  try {
    await assertSharedLimit(servers.map((s) => s.url), adminKey);
    const health = await send(`${servers[1].url}/healthz`);
    assert.equal(health.status, 200);
  } finally {
    await Promise.all(servers.map((s) => s.server.shutdown()));
    await Promise.all(servers.map((s) => s.duplicates.stop()));
    await db.close();
  }
});
