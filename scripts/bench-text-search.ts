/**
 * Text search as a deployment meets it: a fresh database, N realistic events pushed through the
 * API (100 per request, four clients, a trusted key), and at once, with no step in between, 25
 * queries a visitor would type through HTTP, with `collapse` and `interpret` at their defaults:
 * `GET /api/v1/search?mode=text` and the `?q=` listing. Prints p50 and p95 and the slowest
 * queries. scripts/bench.ts runs it as `search-api`.
 *
 *   deno run -A scripts/bench-text-search.ts [--size 100000] [--runs 250]
 *     [--databases postgres,pglite] [--keep]
 *
 * --keep leaves the loaded database in place and prints where it is, to study its plans;
 * --reuse <that URL> times the queries on it again without loading (no longer as a deployment
 * meets it: for comparing changes to the readers only).
 *
 * PostgreSQL needs TEST_DATABASE_URL. The embedding worker does not run (vectors are another
 * benchmark's), so only text is measured.
 */
import { parseArgs } from "node:util";
import { startService } from "../server/serve.ts";
import { configWith } from "../server/config.ts";
import { generateApiKey } from "../shared/api-key-format.ts";
import { createTestDatabase } from "../dev-support/databases.ts";
import type { DatabaseKind } from "../server/db/connect.ts";
import { realisticEvents } from "./support/realistic-events.ts";
import { percentile } from "./support/stats.ts";

/** What visitors type, common words among them (issue 32). */
export const VISITOR_QUERIES = [
  "lightning talks",
  "machine learning",
  "production",
  "scaling",
  "case studies",
  "open source maintainers",
  "rust",
  "kubernetes workshop",
  "data engineering meetup",
  "security",
  "frontend performance",
  "cloud native",
  "hands-on session about databases",
  "conference on artificial intelligence",
  "machine learning in production",
  "typescript berlin",
  "meetup",
  "python",
  "observability",
  "accessibility",
  "design systems",
  "llm",
  "webassembly",
  "testing in production",
  "postgres performance tuning",
];

const { values } = parseArgs({
  args: Deno.args,
  options: {
    size: { type: "string", default: "100000" },
    runs: { type: "string", default: "250" },
    databases: { type: "string", default: "postgres,pglite" },
    keep: { type: "boolean", default: false },
    reuse: { type: "string" },
  },
});
const SIZE = Number(values.size);
const RUNS = Number(values.runs);

for (const kind of values.databases.split(",") as DatabaseKind[]) {
  if (kind === "postgres" && !Deno.env.get("TEST_DATABASE_URL")) {
    console.log("PostgreSQL: skipped (TEST_DATABASE_URL is not set)");
    continue;
  }
  await bench(kind);
}

async function bench(kind: DatabaseKind): Promise<void> {
  const location = values.reuse === undefined ? await createTestDatabase(kind) : {
    kind,
    dataDir: kind === "pglite" ? values.reuse : "",
    databaseUrl: kind === "postgres" ? values.reuse : undefined,
    drop: () => Promise.resolve(),
  };
  const adminKey = generateApiKey();
  const service = await startService(configWith({
    port: 0,
    host: "127.0.0.1",
    dataDir: location.dataDir,
    databaseUrl: location.databaseUrl,
    adminApiKey: adminKey,
    defaultRateLimitPerMinute: 60,
    publicRateLimitPerMinute: 10_000_000,
    trustProxy: false,
    logRequests: false,
    embeddingWorker: "external",
  }));
  try {
    const loading = values.reuse === undefined
      ? `${SIZE.toLocaleString("en")} events pushed through the API in ${
        (await load(service.url, await writerKey(service.url, adminKey)) / 1000).toFixed(0)
      } s`
      : "a database loaded before (--reuse)";
    console.log(
      `\n${kind === "postgres" ? "PostgreSQL 15" : "PGlite"}, ${loading} ` +
        `(load average ${Deno.loadavg()[0].toFixed(1)})`,
    );
    await time(
      service.url,
      "GET /api/v1/search?mode=text",
      (q) => `/api/v1/search?mode=text&q=${q}`,
    );
    await time(service.url, "GET /api/v1/events?q=", (q) => `/api/v1/events?q=${q}`);
  } finally {
    await service.shutdown();
    if (values.keep || values.reuse !== undefined) {
      console.log(`  kept: ${location.databaseUrl ?? location.dataDir}`);
    } else await location.drop();
  }
}

/** A trusted key with a rate limit no load reaches. */
async function writerKey(url: string, adminKey: string): Promise<string> {
  const admin = { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" };
  const res = await fetch(`${url}/api/v1/admin/keys`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({
      contributor: "bench",
      name: "bench",
      scopes: ["events:write"],
      rate_limit_per_minute: 100_000,
    }),
  });
  const created = await res.json();
  if (res.status !== 201) throw new Error(`Cannot create a key: ${JSON.stringify(created)}`);
  const trust = await fetch(`${url}/api/v1/admin/keys/${created.data.id}/trust`, {
    method: "POST",
    headers: admin,
  });
  await trust.body?.cancel();
  return created.data.key;
}

/** Pushes SIZE events, 100 per request, from four clients; returns the milliseconds taken. */
async function load(url: string, key: string): Promise<number> {
  const started = performance.now();
  let next = 0;
  const client = async () => {
    while (next < SIZE) {
      const first = next;
      next += 100;
      const res = await fetch(`${url}/api/v1/events`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ events: realisticEvents(first, Math.min(100, SIZE - first)) }),
      });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`Cannot push events: ${res.status} ${body}`);
    }
  };
  await Promise.all([client(), client(), client(), client()]);
  return performance.now() - started;
}

/** Times the visitor queries round-robin after a warm-up; prints p50, p95 and the slowest. */
async function time(url: string, name: string, path: (q: string) => string): Promise<void> {
  const get = async (q: string) => {
    const t = performance.now();
    const res = await fetch(`${url}${path(encodeURIComponent(q))}`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`Cannot time ${path(q)}: HTTP ${res.status}`);
    return performance.now() - t;
  };
  const first = await Promise.all(VISITOR_QUERIES.map(() => 0));
  for (const [i, q] of VISITOR_QUERIES.entries()) first[i] = await get(q);
  const all: number[] = [];
  const byQuery = new Map<string, number[]>();
  for (let i = 0; i < RUNS; i++) {
    const q = VISITOR_QUERIES[i % VISITOR_QUERIES.length];
    const ms = await get(q);
    all.push(ms);
    byQuery.set(q, [...byQuery.get(q) ?? [], ms]);
  }
  const slowest = [...byQuery].map(([q, ms]) => [q, percentile(ms, 50)] as const)
    .sort((a, b) => b[1] - a[1]).slice(0, 5);
  console.log(
    `  ${name}: p50 ${percentile(all, 50).toFixed(1)} ms, p95 ${
      percentile(all, 95).toFixed(1)
    } ms` +
      ` (first run of each query: p95 ${percentile(first, 95).toFixed(1)} ms); slowest p50: ` +
      slowest.map(([q, ms]) => `"${q}" ${ms.toFixed(0)}`).join(", "),
  );
}
