/**
 * Every kind of request through the server's TCP front (server/http-front/), timed at
 * concurrency 1 on one kept-alive connection as a client sees it: API reads and writes, pages,
 * forms, feeds, the 404 page and MCP. Its purpose is to spot a stall: a relay that holds back
 * the second write of an answer (head first, body later, as a streamed answer comes) until the
 * client's delayed ACK adds about 40 ms to each such request, which a p50 hides among slow
 * requests but a minimum does not. Kinds whose fastest answer took 35 ms or more are named.
 *
 *   deno run -A scripts/bench-front.ts [--size 1000] [--runs 100]
 *
 * PostgreSQL when TEST_DATABASE_URL is set (a fresh database is made there and dropped
 * afterwards), else PGlite in a temporary directory.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { generateApiKey } from "../shared/api-key-format.ts";
import { realisticEvents } from "./support/realistic-events.ts";
import { seededBenchDatabase, startServerProcess } from "./support/bench-server.ts";
import { sizeAndRuns } from "./support/bench-args.ts";
import { fmt, percentile } from "./support/stats.ts";
import { loadAverage } from "./support/figures.ts";
import { cpuSeconds } from "./support/process-usage.ts";

const USAGE = `Usage: deno run -A scripts/bench-front.ts [--size N] [--runs N]

  --size N   events seeded before timing (default 1000)
  --runs N   timed requests of each kind, after 10 warm-up rounds (default 100)

PGlite in a temporary directory, or PostgreSQL when TEST_DATABASE_URL is set.`;

const { size: SIZE, runs: RUNS } = sizeAndRuns(USAGE, { size: 1000, runs: 100 });
const WARM_UP = 10;
/** Well above a loopback round trip and a fast handler, just below a delayed ACK (40 ms). */
const STALL_MS = 35;

const database = await seededBenchDatabase(SIZE, "bench-front-");
try {
  const { dataDir, databaseUrl, eventId } = database;
  const adminKey = generateApiKey();
  const server = await startServerProcess({
    dataDir,
    databaseUrl,
    env: { ADMIN_API_KEY: adminKey },
  });
  try {
    console.log(
      `${database.label}, ${SIZE} events, ${RUNS} requests of each kind, ` +
        `concurrency 1, load average ${loadAverage().toFixed(2)} on ` +
        `${navigator.hardwareConcurrency} cores`,
    );
    await measure({ baseUrl: server.url, pid: server.pid, adminKey, eventId });
  } finally {
    await server.stop();
  }
} finally {
  await database.drop();
}

type Kind = () => Promise<Response | unknown>;

/** Times each kind round-robin, so that they share the machine's noise. */
async function measure(
  o: { baseUrl: string; pid: number; adminKey: string; eventId: string },
): Promise<void> {
  const url = (path: string) => `${o.baseUrl}${path}`;
  const key = await contributorKey(o.baseUrl, o.adminKey);
  const writer = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const batch = JSON.stringify({ events: realisticEvents(0, 10) });
  const mcpBody = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "search_events", arguments: { limit: 10 } },
  });
  const client = new Client({ name: "bench-front", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", o.baseUrl)));
  const kinds: Record<string, Kind> = {
    "API  GET /api/v1/events": () => fetch(url("/api/v1/events?limit=10")),
    "API  GET /api/v1/events (100)": () => fetch(url("/api/v1/events?limit=100")),
    "API  GET /api/v1/events/{id}": () => fetch(url(`/api/v1/events/${o.eventId}`)),
    "API  GET /healthz": () => fetch(url("/healthz")),
    "API  POST /api/v1/events (10)": () =>
      fetch(url("/api/v1/events"), { method: "POST", headers: writer, body: batch }),
    "API  POST /api/v1/events/delete": () =>
      fetch(url("/api/v1/events/delete"), {
        method: "POST",
        headers: writer,
        body: JSON.stringify({ events: [{ external_id: "none", platform: "other" }] }),
      }),
    "API  DELETE /api/v1/events/{id}": () =>
      fetch(url(`/api/v1/events/${crypto.randomUUID()}`), { method: "DELETE", headers: writer }),
    "API  GET /api/v1/me/events": () =>
      fetch(url("/api/v1/me/events?limit=10"), { headers: writer }),
    "page GET /": () => fetch(url("/")),
    "page GET /events/{id}": () => fetch(url(`/events/${o.eventId}`)),
    "page POST /sign-in (form)": () =>
      fetch(url("/sign-in"), {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: o.baseUrl },
        body: "email=nobody%40example.org&password=wrong",
        redirect: "manual",
      }),
    "page GET /nowhere (HTML 404)": () =>
      fetch(url("/nowhere"), { headers: { Accept: "text/html" } }),
    "feed GET /events.ics": () => fetch(url("/events.ics?limit=20")),
    "feed GET /events.atom": () => fetch(url("/events.atom?limit=20")),
    "MCP  JSON-RPC POST (SSE answer)": () =>
      fetch(url("/mcp"), {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
        body: mcpBody,
      }),
    "MCP  SDK client (2026-07-28)": () =>
      client.callTool({ name: "search_events", arguments: { limit: 10 } }),
  };
  const times: Record<string, number[]> = Object.fromEntries(
    Object.keys(kinds).map((k) => [k, []]),
  );
  const statuses: Record<string, Set<number>> = Object.fromEntries(
    Object.keys(kinds).map((k) => [k, new Set<number>()]),
  );
  let start = { server: 0, self: 0 };
  for (let i = 0; i < RUNS + WARM_UP; i++) {
    if (i === WARM_UP) start = { server: await cpuSeconds(o.pid), self: await cpuSeconds("self") };
    for (const [name, run] of Object.entries(kinds)) {
      const t = performance.now();
      const answer = await run();
      if (answer instanceof Response) {
        statuses[name].add(answer.status);
        await answer.arrayBuffer();
      }
      if (i >= WARM_UP) times[name].push(performance.now() - t);
    }
  }
  await client.close();
  const calls = RUNS * Object.keys(kinds).length;
  const serverCpu = (await cpuSeconds(o.pid)) - start.server;
  console.log(
    `  CPU while timing: server ${serverCpu.toFixed(1)} s (${
      (serverCpu * 1000 / calls).toFixed(2)
    } ` +
      `ms a request), this process ${((await cpuSeconds("self")) - start.self).toFixed(1)} s; ` +
      `load average after ${loadAverage().toFixed(2)}`,
  );
  const stalled: string[] = [];
  for (const [name, ms] of Object.entries(times)) {
    const status = [...statuses[name]].join(",") || "-";
    const min = Math.min(...ms);
    if (min >= STALL_MS) stalled.push(name.trim());
    console.log(
      `  ${name.padEnd(34)} ${status.padEnd(7)} min ${fmt(min)} ms   ` +
        `p50 ${fmt(percentile(ms, 50))} ms   p95 ${fmt(percentile(ms, 95))} ms`,
    );
  }
  console.log(
    stalled.length === 0
      ? `  No kind took ${STALL_MS} ms or more every time: no stall.`
      : `  Stalled (never under ${STALL_MS} ms): ${stalled.join("; ")}`,
  );
  if (stalled.length > 0) Deno.exitCode = 1;
}

/** A contributor key with room for every request of the run. */
async function contributorKey(baseUrl: string, adminKey: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/admin/keys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      contributor: "bench-front",
      name: "bench-front",
      scopes: ["events:write"],
      rate_limit_per_minute: 100_000,
    }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`Cannot create a key: ${res.status} ${text}`);
  return JSON.parse(text).data.key;
}
