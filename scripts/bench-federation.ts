/**
 * Federation at scale: an `events` actor with many followers spread over many servers gets one
 * delivery per server (shared inbox) per event, and a push's answer does not wait for the
 * deliveries it causes. A sink on a loopback port plays every remote server (one shared inbox
 * path per server) and counts what arrives.
 *
 *   deno run -A scripts/bench-federation.ts [--db pglite|postgres] [--followers 10000]
 *     [--servers 500] [--pushes 5] [--per-push 100] [--drain-seconds 120]
 *
 * Prints: the deliveries of one event (expected: --servers), the p50 and each time of pushes of
 * --per-push events without followers and with them, how long the publisher took to hand the
 * activities to the queue, and how many deliveries the sink received within --drain-seconds.
 */
import { parseArgs } from "node:util";
import { createApiKey, postBatch, startTestServer } from "../dev-support/test-server.ts";
import { addFollowers } from "../server/db/federation-followers.ts";
import { countQueued } from "../server/db/federation-queue.ts";
import type { DatabaseKind } from "../server/db/connect.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    db: { type: "string", default: "pglite" },
    followers: { type: "string", default: "10000" },
    servers: { type: "string", default: "500" },
    pushes: { type: "string", default: "5" },
    "per-push": { type: "string", default: "100" },
    "drain-seconds": { type: "string", default: "120" },
  },
});
const FOLLOWERS = Number(values.followers);
const SERVERS = Number(values.servers);
const PUSHES = Number(values.pushes);
const PER_PUSH = Number(values["per-push"]);
const DRAIN_MS = Number(values["drain-seconds"]) * 1000;

const received = new Map<string, number>();
let deliveries = 0;
// Bound to every address: each remote server is a loopback address of its own (127.0.x.y),
// so that deliveries to different servers are not ordered after each other as one origin's are.
const sink = Deno.serve({ hostname: "0.0.0.0", port: 0, onListen: () => {} }, async (req) => {
  if (req.method === "POST") {
    await req.arrayBuffer();
    const where = new URL(req.url);
    const inbox = `${where.host}${where.pathname}`;
    received.set(inbox, (received.get(inbox) ?? 0) + 1);
    deliveries++;
    if (Deno.env.get("BENCH_TRACE")) {
      console.log(`delivery ${deliveries} at ${Date.now() % 100000}`);
    }
  }
  return new Response(null, { status: 202 });
});
const serverUrl = (s: number) =>
  `http://127.0.${1 + Math.floor(s / 250)}.${1 + (s % 250)}:${sink.addr.port}`;

const server = await startTestServer(values.db as DatabaseKind, {
  federation: { enabled: true, allowPrivateAddress: true },
  defaultRateLimitPerMinute: 100_000,
  embeddings: { provider: "openai", openaiApiKey: "unused", openaiBaseUrl: "http://127.0.0.1:9" },
});
const { sql } = server.service.deps.db;
const federation = server.service.deps.federation!;
const key = await createApiKey(server, { contributor: "bench", rate_limit_per_minute: 100_000 });
await server.fetch(`/api/v1/admin/keys/${key.id}/trust`, {
  method: "POST",
  headers: { Authorization: `Bearer ${server.adminKey}` },
});

let serial = 0;
const batch = (n: number) =>
  Array.from({ length: n }, () => {
    serial++;
    return {
      external_id: `bench-${serial}`,
      source_url: `https://events.example.org/bench/${serial}`,
      title: `Benchmark meetup number ${serial} about ${serial % 7 === 0 ? "Rust" : "Go"}`,
      starts_at: new Date(Date.UTC(2031, 0, 1 + (serial % 300), 18)).toISOString(),
      city: `Town ${serial % 40}`,
      country: "DE",
    };
  });

async function timedPushes(label: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < PUSHES; i++) {
    const started = performance.now();
    const res = await postBatch(server.url, key.key, { events: batch(PER_PUSH) });
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`Cannot push: ${res.status}`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `${label}: push of ${PER_PUSH} events p50 ${
      sorted[Math.floor(sorted.length / 2)].toFixed(0)
    } ms ` +
      `(each: ${times.map((t) => t.toFixed(0)).join(", ")} ms)`,
  );
  return times;
}

async function waitUntil(check: () => Promise<boolean> | boolean, limitMs: number) {
  const deadline = Date.now() + limitMs;
  while (!await check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

try {
  // A first push warms the server up (database, caches); it is not counted.
  await postBatch(server.url, key.key, { events: batch(PER_PUSH) });
  // Without followers: the publisher records activities but has no one to deliver to.
  await timedPushes("Without followers");
  await federation.publisher.idle();

  const followers = Array.from({ length: FOLLOWERS }, (_, i) => {
    const s = i % SERVERS;
    return {
      id: `${serverUrl(s)}/users/u${i}`,
      inbox: `${serverUrl(s)}/users/u${i}/inbox`,
      sharedInbox: `${serverUrl(s)}/inbox`,
    };
  });
  for (let i = 0; i < followers.length; i += 5_000) {
    await addFollowers(sql, { actor: "events", followers: followers.slice(i, i + 5_000) });
  }
  console.log(`${FOLLOWERS} followers of events on ${SERVERS} servers`);

  // One event: one delivery per server.
  const one = performance.now();
  if (Deno.env.get("BENCH_TRACE")) console.log(`push at ${Date.now() % 100000}`);
  await postBatch(server.url, key.key, { events: batch(1) });
  await waitUntil(() => deliveries >= SERVERS, DRAIN_MS);
  await new Promise((r) => setTimeout(r, 2_000));
  console.log(
    `One event: ${deliveries} deliveries to ${received.size} shared inboxes in ` +
      `${((performance.now() - one) / 1000).toFixed(1)} s (${FOLLOWERS} followers)`,
  );
  deliveries = 0;
  received.clear();

  const started = performance.now();
  await timedPushes(`With ${FOLLOWERS} followers`);
  await federation.publisher.idle();
  const handed = performance.now() - started;
  const depth = await countQueued(sql);
  console.log(
    `${PUSHES * PER_PUSH} events handed to the delivery queue ${(handed / 1000).toFixed(1)} s ` +
      `after the first push; queue now ${depth.queued} messages`,
  );
  const expected = PUSHES * PER_PUSH * SERVERS;
  await waitUntil(() => deliveries >= expected, DRAIN_MS);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `Deliveries received: ${deliveries} of ${expected} expected (${PUSHES * PER_PUSH} events x ` +
      `${SERVERS} servers) within ${seconds.toFixed(0)} s: ${(deliveries / seconds).toFixed(0)}/s`,
  );
} finally {
  await server.close();
  await sink.shutdown();
}
