/**
 * What the MCP protocol adds to a search: search_events over /mcp against the same search through
 * /api/v1/search (and the plain listing and a `near` listing against GET /api/v1/events), p50/p95
 * at concurrency 1, on the real server in its own process. MCP is timed twice: as raw JSON-RPC
 * POSTs (the protocol's own cost) and through the current SDK client on the 2026-07-28 revision
 * (what an assistant's client adds: it also validates every result against the output schema).
 *
 *   deno run -A scripts/bench-mcp.ts [--size 100000] [--runs 300]
 *
 * PGlite in a temporary directory by default; PostgreSQL when TEST_DATABASE_URL is set (a fresh
 * database is made there and dropped afterwards).
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { fmt, percentile } from "./support/stats.ts";
import { seededBenchDatabase, startServerProcess } from "./support/bench-server.ts";
import { sizeAndRuns } from "./support/bench-args.ts";
import { loadAverage } from "./support/figures.ts";
import { cpuSeconds } from "./support/process-usage.ts";

const USAGE = `Usage: deno run -A scripts/bench-mcp.ts [--size N] [--runs N]

  --size N   events seeded before timing (default 100000)
  --runs N   timed calls of each kind, after 20 warm-up rounds (default 300)

PGlite in a temporary directory, or PostgreSQL when TEST_DATABASE_URL is set.`;

const { size: SIZE, runs: RUNS } = sizeAndRuns(USAGE, { size: 100_000, runs: 300 });
const QUERIES = [
  "rust",
  "kubernetes workshop",
  "machine learning",
  "data engineering meetup",
  "security",
  "frontend performance",
  "cloud native",
  "hands-on session about databases",
];

const database = await seededBenchDatabase(SIZE, "bench-mcp-");
try {
  console.log(
    `${database.label}, ${SIZE} events (loaded in ` +
      `${(database.loadMs / 1000).toFixed(0)} s), ${RUNS} runs of each, concurrency 1`,
  );
  const server = await startServerProcess(database);
  try {
    await compare(server.url, server.pid);
  } finally {
    await server.stop();
  }
} finally {
  await database.drop();
}

/** Times each way of searching round-robin, so that they share the machine's noise. */
async function compare(baseUrl: string, serverPid: number): Promise<void> {
  const client = new Client({ name: "bench-mcp", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", baseUrl)));
  const rawCall = (args: Record<string, unknown>) =>
    postJson(`${baseUrl}/mcp`, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "search_events", arguments: args },
    });
  const get = (path: string) => getJson(`${baseUrl}${path}`);
  const text = (q: string) => ({ query: q, mode: "text", limit: 10 });
  const variants: Record<string, (q: string) => Promise<unknown>> = {
    "text  /api/v1/search": (q) =>
      get(`/api/v1/search?${new URLSearchParams({ q, mode: "text", limit: "10" })}`),
    "text  MCP JSON-RPC": (q) => rawCall(text(q)),
    "text  MCP SDK client": (q) => client.callTool({ name: "search_events", arguments: text(q) }),
    "list  /api/v1/events": () => get("/api/v1/events?limit=10"),
    "list  MCP JSON-RPC": () => rawCall({ limit: 10 }),
    "list  MCP SDK client": () =>
      client.callTool({ name: "search_events", arguments: { limit: 10 } }),
    "near  /api/v1/events": () => get("/api/v1/events?near=50.5,10.5&radius_km=5&limit=10"),
    "near  MCP JSON-RPC": () =>
      rawCall({ near: { latitude: 50.5, longitude: 10.5, radius_km: 5 }, limit: 10 }),
  };
  const times: Record<string, number[]> = Object.fromEntries(
    Object.keys(variants).map((k) => [k, []]),
  );
  let cpu = { server: 0, self: 0, load: 0 };
  for (let i = 0; i < RUNS + 20; i++) {
    // The first rounds warm caches and prepared statements.
    if (i === 20) {
      cpu = { server: await cpuSeconds(serverPid), self: await cpuSeconds("self"), load: 0 };
      cpu.load = loadAverage();
    }
    for (const [name, run] of Object.entries(variants)) {
      const t = performance.now();
      await run(QUERIES[i % QUERIES.length]);
      if (i >= 20) times[name].push(performance.now() - t);
    }
  }
  const calls = RUNS * Object.keys(variants).length;
  const serverCpu = (await cpuSeconds(serverPid)) - cpu.server;
  const selfCpu = (await cpuSeconds("self")) - cpu.self;
  console.log(
    `  load average ${cpu.load.toFixed(2)} before timing, ${loadAverage().toFixed(2)} after; ` +
      `CPU while timing: server ${serverCpu.toFixed(1)} s ` +
      `(${(serverCpu * 1000 / calls).toFixed(2)} ms a call), this process ${selfCpu.toFixed(1)} s`,
  );
  await client.close();
  for (const [name, ms] of Object.entries(times)) {
    console.log(
      `  ${name.padEnd(22)} p50 ${fmt(percentile(ms, 50))} ms   p95 ${fmt(percentile(ms, 95))} ms`,
    );
  }
  for (const kind of ["text", "list", "near"]) {
    const api = percentile(times[Object.keys(times).find((k) => k.startsWith(kind))!], 95);
    for (const name of Object.keys(times).filter((k) => k.startsWith(kind) && k.includes("MCP"))) {
      console.log(`  ${name}: p95 ${fmt(percentile(times[name], 95) - api)} ms over the API`);
    }
  }
}

async function postJson(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok || text.includes('"isError":true')) throw new Error(`${res.status} ${text}`);
  return text;
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  return await res.json();
}
