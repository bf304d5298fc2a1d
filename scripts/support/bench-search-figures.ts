/**
 * Search latency on a database of N realistic events, through the running service: in-process
 * (the search code alone) and through HTTP (what a visitor waits for, minus the network).
 * Text on both databases; semantic and hybrid where pgvector is (PGlite here). Each figure is the
 * p95 over every query of a set, run round-robin after a warm-up (PGlite runs in WebAssembly, and
 * V8 compiles its hot paths only after a few dozen runs).
 */
import process from "node:process";
import type { DatabaseKind } from "../../server/db/connect.ts";
import { listEvents } from "../../server/db/event-reads.ts";
import { type RunningService, startService } from "../../server/serve.ts";
import { configWith } from "../../server/config.ts";
import { searchEvents, type SearchMode } from "../../server/search/search-events.ts";
import { benchDatabase } from "./bench-database.ts";
import { type FigureLog, type Target } from "./figures.ts";
import { percentile } from "./stats.ts";

/** Queries of every kind: one common word, rare pairs, fallbacks, no match, stop words. */
export const TEXT_QUERIES = [
  "rust",
  "kubernetes workshop",
  "machine learning",
  "data engineering meetup",
  "security",
  "frontend performance",
  "cloud native",
  "startup networking",
  "hands-on session about databases",
  "conference on artificial intelligence",
  "machine learning in production",
  "database administration",
  "typescript berlin",
  "meetup",
  "production",
  "lightning talks",
];

/** What a visitor types that occurs in most events (the slow case of issue 11). */
export const COMMON_QUERIES = ["meetup", "production", "lightning talks"];

export interface SearchBenchOptions {
  kind: DatabaseKind;
  size: number;
  /** Timed runs of each query set (each run is one query, round-robin). */
  runs: number;
  /** Targets by figure key ("text", "http-text", ...); absent keys have none. */
  targets: Record<string, Target | undefined>;
}

/** Measures search at one size on one database and adds the figures to `log`. */
export async function benchSearch(log: FigureLog, o: SearchBenchOptions): Promise<void> {
  const started = performance.now();
  const db = await benchDatabase(o.kind, o.size);
  const section = `Search, ${o.size.toLocaleString("en")} events, ${label(o.kind)}`;
  console.log(
    `\n${section} (database ready in ${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
  const service = await startService(configWith({
    port: 0,
    host: "127.0.0.1",
    dataDir: db.dataDir,
    databaseUrl: db.databaseUrl,
    defaultRateLimitPerMinute: 60,
    publicRateLimitPerMinute: 10_000_000,
    trustProxy: false,
    logRequests: false,
    embeddingWorker: "external",
  }));
  try {
    // On a shared machine the wall clock also counts the neighbours' work; this process's CPU
    // time does not (and on PGlite, where the database runs in this process, it is most of a
    // query's cost), so it is noted beside each figure.
    const add = (key: string, name: string, t: Timings) =>
      log.add({
        section,
        name,
        value: percentile(t.wall, 95),
        unit: "ms",
        target: o.targets[key],
        note: `CPU p50 ${fmtMs(percentile(t.cpu, 50))}, p95 ${fmtMs(percentile(t.cpu, 95))}` +
          (o.kind === "postgres" ? " (this process only, not the server's)" : ""),
      });
    const { sql } = service.deps.db;
    const search = (mode: SearchMode, filters = {}) => (q: string) =>
      searchEvents(sql, service.deps.ai, { q, mode, filters, limit: 20 });
    add(
      "text",
      "text search p95 (in-process, 16 queries)",
      await timeQueries(o.runs, TEXT_QUERIES, search("text")),
    );
    add(
      "list-q",
      "?q= listing p95 (in-process, 16 queries)",
      await timeQueries(o.runs, TEXT_QUERIES, (q) => listEvents(sql, { q }, { limit: 20 })),
    );
    add(
      "http-text",
      "GET /api/v1/search?mode=text p95, common words",
      await timeQueries(
        o.runs,
        COMMON_QUERIES,
        httpGet(service, (q) => `/api/v1/search?mode=text&q=${q}`),
      ),
    );
    add(
      "http-list-q",
      "GET /api/v1/events?q= p95, common words",
      await timeQueries(o.runs, COMMON_QUERIES, httpGet(service, (q) => `/api/v1/events?q=${q}`)),
    );
    add(
      "http-text-all",
      "GET /api/v1/search?mode=text p95, 16 queries",
      await timeQueries(
        o.runs,
        TEXT_QUERIES,
        httpGet(service, (q) => `/api/v1/search?mode=text&q=${q}`),
      ),
    );
    add(
      "http-list",
      "GET /api/v1/events p95 (plain listing, for reference)",
      await timeQueries(o.runs, [""], httpGet(service, () => "/api/v1/events")),
    );
    if (!db.vectors) return;
    add(
      "semantic",
      "semantic search p95 (in-process)",
      await timeQueries(o.runs, TEXT_QUERIES, search("semantic")),
    );
    add(
      "hybrid",
      "hybrid search p95 (in-process)",
      await timeQueries(o.runs, TEXT_QUERIES, search("hybrid")),
    );
    add(
      "http-hybrid",
      "GET /api/v1/search (hybrid) p95",
      await timeQueries(o.runs, TEXT_QUERIES, httpGet(service, (q) => `/api/v1/search?q=${q}`)),
    );
    await strictFilters(log, service, {
      section,
      runs: o.runs,
      target: o.targets["semantic-strict"],
    });
  } finally {
    await service.shutdown();
    await db.drop();
  }
}

/** Semantic search where a filter keeps few events: how fast, and whether pages come complete. */
async function strictFilters(
  log: FigureLog,
  service: RunningService,
  o: { section: string; runs: number; target?: Target },
): Promise<void> {
  const { sql } = service.deps.db;
  // About 1 in 80 events: one city of eight, paid, one platform of four, and a topic.
  const filters = { city: "Lisbon", is_free: false, platform: "luma", topic: "rust" };
  const [{ n }] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM events
    WHERE city = 'Lisbon' AND NOT is_free AND platform = 'luma' AND 'rust' = ANY(topics)`;
  let complete = 0;
  let pages = 0;
  const { wall, cpu } = await timeQueries(o.runs, TEXT_QUERIES, async (q) => {
    const { hits } = await searchEvents(sql, service.deps.ai, {
      q,
      mode: "semantic",
      filters,
      limit: 20,
    });
    pages++;
    if (hits.length === Math.min(20, n)) complete++;
  });
  log.add({
    section: o.section,
    name: `semantic search p95, strict filters (${n} matching events)`,
    value: percentile(wall, 95),
    unit: "ms",
    target: o.target,
    note: `${complete} of ${pages} pages complete; CPU p95 ${fmtMs(percentile(cpu, 95))}`,
  });
}

/** Wall and CPU milliseconds of each timed run. */
export interface Timings {
  wall: number[];
  /** This process's CPU time (all threads): PGlite's work, the server's, the client's. */
  cpu: number[];
}

/** Runs `run` over `queries` round-robin: a warm-up, then `runs` timed runs. */
export async function timeQueries(
  runs: number,
  queries: string[],
  run: (q: string) => Promise<unknown>,
): Promise<Timings> {
  for (let i = 0; i < Math.max(30, queries.length * 3); i++) await run(queries[i % queries.length]);
  const timings: Timings = { wall: [], cpu: [] };
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await run(queries[i % queries.length]);
    timings.wall.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    timings.cpu.push((used.user + used.system) / 1000);
  }
  return timings;
}

function httpGet(service: RunningService, path: (q: string) => string) {
  return async (q: string) => {
    const res = await fetch(`${service.url}${path(encodeURIComponent(q))}`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`Cannot benchmark ${path(q)}: HTTP ${res.status}`);
  };
}

function fmtMs(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}

function label(kind: DatabaseKind): string {
  return kind === "pglite" ? "PGlite" : "PostgreSQL 15";
}
