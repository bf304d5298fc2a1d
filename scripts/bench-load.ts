/**
 * The service under load (issue 12): contributors' keys pushing 100-event batches back to back
 * while visitors browse the site, programs call /api/v1/search and an assistant searches through
 * MCP, against the real server in its own process on PostgreSQL; two keys more list twin
 * conferences to time how long grouping takes after a push. Reports per kind of request
 * the count, throughput and p50/p95/p99, every error by status, the events pushed per second, and
 * the server's memory after warm-up, through the run and at the end against a stated bound.
 * Exits 1 when a request failed, the memory bound was broken or the database lacks an
 * acknowledged event.
 *
 *   TEST_DATABASE_URL=postgres://... deno run -A scripts/bench-load.ts [--duration 60]
 *     [--warm-up 10] [--keys 20] [--visitors 8] [--api-clients 2] [--mcp-clients 1]
 *     [--size 100000] [--think-ms 250] [--timeout-ms 15000] [--memory-bound-percent 25]
 *
 * A fresh database is made on that server for the run and dropped afterwards, also on Ctrl-C.
 */
import { parseArgs } from "node:util";
import postgres from "postgres";
import { openDatabase } from "../server/db/connect.ts";
import { generateApiKey } from "../shared/api-key-format.ts";
import { createTestDatabase } from "../dev-support/databases.ts";
import { seedRealisticEvents, startServerProcess } from "./support/bench-server.ts";
import { LoadRecorder } from "./support/load-recorder.ts";
import type { LoadContext } from "./support/load-requests.ts";
import { pushLoop, type PushTally } from "./support/load-pushers.ts";
import {
  API_KIND,
  apiSearchLoop,
  MCP_KIND,
  mcpSearchLoop,
  SITE_KINDS,
  visitorLoop,
} from "./support/load-readers.ts";
import { type LoadRun, printLoadReport, type UsageSnapshot } from "./support/load-report.ts";
import { cpuSeconds, FullGcTrail, MemorySampler, residentBytes } from "./support/process-usage.ts";
import { loadAverage } from "./support/figures.ts";
import { GROUPING_KIND, groupingLoop } from "./support/load-grouping.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    duration: { type: "string", default: "60" },
    "warm-up": { type: "string", default: "10" },
    keys: { type: "string", default: "20" },
    visitors: { type: "string", default: "8" },
    "api-clients": { type: "string", default: "2" },
    "mcp-clients": { type: "string", default: "1" },
    size: { type: "string", default: "100000" },
    "think-ms": { type: "string", default: "250" },
    "timeout-ms": { type: "string", default: "15000" },
    "memory-bound-percent": { type: "string", default: "25" },
  },
});
const number = (name: keyof typeof values) => {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n < 0) {
    throw new Error(`--${name} must be a number of 0 or more, got "${values[name]}"`);
  }
  return n;
};
const OPTIONS = {
  durationS: number("duration"),
  warmUpS: number("warm-up"),
  keys: number("keys"),
  visitors: number("visitors"),
  apiClients: number("api-clients"),
  mcpClients: number("mcp-clients"),
  size: number("size"),
  thinkMs: number("think-ms"),
  timeoutMs: number("timeout-ms"),
  memoryBoundPercent: number("memory-bound-percent"),
};
const BATCH_SIZE = 100;
/** Lets a key push as fast as the server answers: the benchmark measures the server, not limits. */
const KEY_RATE_LIMIT_PER_MINUTE = 6000;

const serverUrl = Deno.env.get("TEST_DATABASE_URL");
if (!serverUrl) {
  console.error("Cannot run the load benchmark: set TEST_DATABASE_URL to a PostgreSQL server");
  Deno.exit(2);
}

// Ctrl-C (or SIGTERM) ends the run early; the server is stopped and the database dropped all
// the same. Signals after the first do not cut that short (a leftover database would stay on
// the server): the clean-up is bounded, and past CLEANUP_MS the process exits regardless.
const CLEANUP_MS = 30_000;
const interrupted = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => {
    if (interrupted.signal.aborted) {
      console.error(`${signal} again: still stopping (at most ${CLEANUP_MS / 1000} s)`);
      return;
    }
    console.error(`${signal}: stopping the server and dropping the database`);
    interrupted.abort(new Error(`Interrupted by ${signal}`));
    Deno.unrefTimer(setTimeout(() => {
      console.error("Cannot clean up in time: exiting; drop the run's database by hand");
      Deno.exit(130);
    }, CLEANUP_MS));
  });
}

let exitCode = 1;
const location = await createTestDatabase("postgres");
try {
  // The suite's databases skip waiting for the disk on commit; a deployed one does not.
  await withServerConnection((sql) =>
    sql.unsafe(`ALTER DATABASE "${databaseName(location.databaseUrl!)}" RESET synchronous_commit`)
  );
  const seedMs = await unlessInterrupted(seed(location.databaseUrl!));
  const adminKey = generateApiKey();
  const fullGcs = new FullGcTrail();
  const server = await unlessInterrupted(startServerProcess({
    dataDir: "",
    databaseUrl: location.databaseUrl,
    env: {
      ADMIN_API_KEY: adminKey,
      // Readers come from addresses of their own, as behind a proxy, so each has the default
      // public limit rather than one raised for the benchmark.
      TRUST_PROXY: "true",
      PUBLIC_RATE_LIMIT_PER_MINUTE: "600",
    },
    onFullGc: (live, reserved) => fullGcs.record(live, reserved),
  }));
  try {
    const run = await unlessInterrupted(runLoad({
      baseUrl: server.url,
      pid: server.pid,
      fullGcs,
      adminKey,
      databaseUrl: location.databaseUrl!,
    }));
    exitCode = printLoadReport(run, {
      ...OPTIONS,
      seedMs,
      postgresVersion: await withServerConnection(async (sql) =>
        (await sql`SELECT current_setting('server_version') AS v`)[0].v
      ),
    });
  } finally {
    await server.stop();
  }
} catch (err) {
  if (interrupted.signal.aborted) exitCode = 130;
  else console.error("The load benchmark failed:", err);
} finally {
  await location.drop();
}
Deno.exit(exitCode);

/** Seeds the realistic base the run starts from; how long it took. */
async function seed(databaseUrl: string): Promise<number> {
  const db = await openDatabase({ dataDir: "", databaseUrl });
  try {
    const ms = await seedRealisticEvents(db.sql, OPTIONS.size);
    await db.sql`ANALYZE`;
    return ms;
  } finally {
    await db.close();
  }
}

/** Creates the keys, runs every client for warm-up plus duration, and takes the measurements. */
async function runLoad(o: {
  baseUrl: string;
  pid: number;
  fullGcs: FullGcTrail;
  adminKey: string;
  databaseUrl: string;
}): Promise<LoadRun> {
  const keys = await createKeys(o.baseUrl, o.adminKey, OPTIONS.keys + 2);
  // The last two keys list twin conferences, to time grouping (load-grouping.ts).
  const [twinA, twinB] = keys.splice(OPTIONS.keys, 2);
  const recorder = new LoadRecorder([
    "push",
    "push (grouping probe)",
    GROUPING_KIND,
    ...SITE_KINDS,
    API_KIND,
    MCP_KIND,
  ]);
  const started = performance.now();
  const ctx: LoadContext = {
    baseUrl: o.baseUrl,
    recorder,
    until: started + (OPTIONS.warmUpS + OPTIONS.durationS) * 1000,
    signal: interrupted.signal,
    timeoutMs: OPTIONS.timeoutMs,
    thinkMs: OPTIONS.thinkMs,
  };
  const tally: PushTally = { measuredEvents: 0, inserted: 0, updated: 0, storedNew: 0 };
  const sampler = new MemorySampler(o.pid, 1000);
  const db = postgres(o.databaseUrl, { max: 1, onnotice: () => {} });
  const usage = () => usageSnapshot(o.pid, db);
  try {
    const atStart = await usage();
    const warmedUp = new Promise<UsageSnapshot>((resolve, reject) =>
      setTimeout(() => {
        recorder.startMeasuring();
        usage().then(resolve, reject);
      }, OPTIONS.warmUpS * 1000)
    );
    const address = (net: string, i: number) => `${net}.${i + 1}`;
    await Promise.all([
      ...keys.map((key, index) => pushLoop(ctx, { key, index, batchSize: BATCH_SIZE, tally })),
      groupingLoop(ctx, { a: twinA, b: twinB }),
      ...times(
        OPTIONS.visitors,
        (i) => visitorLoop(ctx, { address: address("198.51.100", i), seed: 11 + i }),
      ),
      ...times(
        OPTIONS.apiClients,
        (i) => apiSearchLoop(ctx, { address: address("203.0.113", i), seed: 101 + i }),
      ),
      ...times(
        OPTIONS.mcpClients,
        (i) => mcpSearchLoop(ctx, { address: address("192.0.2", i), seed: 1001 + i }),
      ),
    ]);
    const afterWarmUp = await warmedUp;
    const atEnd = await usage();
    const [{ stored }] = await db<{ stored: number }[]>`
      SELECT count(*)::int AS stored FROM events e JOIN contributors c ON c.id = e.contributor_id
      WHERE c.name LIKE 'load-contributor-%' AND e.external_id NOT LIKE 'twin-%'`;
    return {
      summaries: recorder.summaries(OPTIONS.durationS),
      totalErrors: recorder.totalErrors(),
      tally,
      stored,
      atStart,
      afterWarmUp,
      atEnd,
      maxRssBytes: sampler.maxSince(OPTIONS.warmUpS * 1000),
      rssTrail: sampler.every(OPTIONS.warmUpS * 1000, 10_000),
      heapTrail: o.fullGcs.every(
        started + OPTIONS.warmUpS * 1000,
        started + (OPTIONS.warmUpS + OPTIONS.durationS) * 1000,
        10_000,
      ),
    };
  } finally {
    sampler.stop();
    await db.end({ timeout: 5 });
  }
}

/** Issues one `events:write` key per contributor through the operators' API. */
async function createKeys(baseUrl: string, adminKey: string, count: number): Promise<string[]> {
  return await Promise.all(times(count, async (i) => {
    const res = await fetch(`${baseUrl}/api/v1/admin/keys`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        contributor: `load-contributor-${i}`,
        name: "bench-load",
        rate_limit_per_minute: KEY_RATE_LIMIT_PER_MINUTE,
      }),
      signal: AbortSignal.timeout(OPTIONS.timeoutMs),
    });
    const body = await res.json();
    if (res.status !== 201) throw new Error(`Cannot create a key: ${JSON.stringify(body)}`);
    return body.data.key as string;
  }));
}

/** The server's memory and CPU time, its PostgreSQL backends' CPU time, this process's, load. */
async function usageSnapshot(pid: number, db: postgres.Sql): Promise<UsageSnapshot> {
  const backends = await db<{ pid: number }[]>`
    SELECT pid FROM pg_stat_activity
    WHERE datname = current_database() AND application_name = 'tech-events'`;
  const backendCpu = new Map<number, number>();
  for (const { pid: backend } of backends) {
    // A backend may end between the query and the read.
    await cpuSeconds(backend).then((s) => backendCpu.set(backend, s), () => {});
  }
  return {
    rssBytes: await residentBytes(pid),
    serverCpuS: await cpuSeconds(pid),
    backendCpuS: backendCpu,
    selfCpuS: await cpuSeconds("self"),
    load: loadAverage(),
  };
}

/** Resolves as `work` does, or rejects at once on Ctrl-C (the cleanup then ends the work). */
function unlessInterrupted<T>(work: Promise<T>): Promise<T> {
  work.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const signal = interrupted.signal;
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    work.then(resolve, reject);
  });
}

async function withServerConnection<T>(use: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(serverUrl!, { max: 1, onnotice: () => {} });
  try {
    return await use(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function databaseName(url: string): string {
  return new URL(url).pathname.slice(1);
}

function times<T>(n: number, make: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => make(i));
}
