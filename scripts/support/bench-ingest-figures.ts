/**
 * Ingestion figures: 100-event batches through the real HTTP server (several keys, concurrent
 * clients) against the raw database upsert of the same rows, and one client's batch latency.
 * New batches only: a re-sent batch changes nothing and is cheaper by design.
 */
import type { Sql } from "postgres";
import { EventBatch, type EventRecord } from "../../shared/event-schema.ts";
import { upsertEvents, type Writer } from "../../server/db/events.ts";
import type { DatabaseKind } from "../../server/db/connect.ts";
import { openDatabase } from "../../server/db/connect.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { createTestDatabase } from "../../dev-support/databases.ts";
import { createApiKey, startTestServer } from "../../dev-support/test-server.ts";
import { realisticEvents } from "./realistic-events.ts";
import { type FigureLog, type Target } from "./figures.ts";
import { percentile, runTimed } from "./stats.ts";

const KEYS = 4;

export interface IngestBenchOptions {
  kind: DatabaseKind;
  /** Batches of 100 events per measurement. */
  batches: number;
  clients: number;
  targets: { oneClientP95?: Target; httpOverRaw?: Target };
}

/** Adds one client's batch p95 and the HTTP/raw throughput ratio at `clients` clients. */
export async function benchIngest(log: FigureLog, o: IngestBenchOptions): Promise<void> {
  const section = `Ingestion, ${o.kind === "pglite" ? "PGlite" : "PostgreSQL 15"}`;
  console.log(`\n${section}`);
  // Distinct events for every run, so that each batch inserts.
  const batchesFrom = (first: number) =>
    Array.from({ length: o.batches }, (_, b) => realisticEvents(first + b * 100, 100));
  const one = await viaHttp(o.kind, batchesFrom(0), 1);
  log.add({
    section,
    name: "100-event batch p95, one client, HTTP",
    value: percentile(one.latencies, 95),
    unit: "ms",
    target: o.targets.oneClientP95,
    note: `p50 ${percentile(one.latencies, 50).toFixed(1)} ms`,
  });
  const http = await viaHttp(o.kind, batchesFrom(10_000_000), o.clients);
  const raw = await viaRawUpsert(o.kind, batchesFrom(20_000_000), o.clients);
  const rate = (r: { latencies: number[]; wallMs: number }) =>
    (r.latencies.length * 100) / (r.wallMs / 1000);
  log.add({
    section,
    name: `HTTP throughput, ${o.clients} clients`,
    value: rate(http),
    unit: "events/s",
    note: `p95 ${percentile(http.latencies, 95).toFixed(1)} ms`,
  });
  log.add({
    section,
    name: `raw upsert throughput, ${o.clients} clients`,
    value: rate(raw),
    unit: "events/s",
    note: `p95 ${percentile(raw.latencies, 95).toFixed(1)} ms`,
  });
  log.add({
    section,
    name: `HTTP/raw upsert throughput, ${o.clients} clients`,
    value: (rate(http) / rate(raw)) * 100,
    unit: "%",
    target: o.targets.httpOverRaw,
  });
}

async function viaHttp(kind: DatabaseKind, batches: Record<string, unknown>[][], clients: number) {
  const server = await startTestServer(kind, { embeddingWorker: "external" });
  try {
    const keys: string[] = [];
    for (let i = 0; i < KEYS; i++) {
      const created = await createApiKey(server, {
        contributor: `bench-${i}`,
        rate_limit_per_minute: 100_000,
      });
      keys.push(created.key);
    }
    const bodies = batches.map((events) => JSON.stringify({ events }));
    const send = (i: number) => async () => {
      const res = await fetch(`${server.url}/api/v1/events`, {
        method: "POST",
        headers: { Authorization: `Bearer ${keys[i % KEYS]}`, "Content-Type": "application/json" },
        body: bodies[i],
      });
      const body = await res.json();
      if (res.status !== 200 || body.data.errors.length > 0) {
        throw new Error(`Batch ${i} failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      }
    };
    // Warm-up: every key's first batch (recorded for review) and the code paths, untimed.
    const warm = realisticEvents(30_000_000, 100 * KEYS);
    for (let k = 0; k < KEYS; k++) {
      await fetch(`${server.url}/api/v1/events`, {
        method: "POST",
        headers: { Authorization: `Bearer ${keys[k]}`, "Content-Type": "application/json" },
        body: JSON.stringify({ events: warm.slice(k * 100, k * 100 + 100) }),
      }).then((r) => r.body?.cancel());
    }
    return await runTimed(bodies.map((_, i) => send(i)), clients);
  } finally {
    await server.close();
  }
}

async function viaRawUpsert(
  kind: DatabaseKind,
  batches: Record<string, unknown>[][],
  clients: number,
) {
  const location = await createTestDatabase(kind);
  const db = await openDatabase(location);
  try {
    const writers: Writer[] = [];
    for (let i = 0; i < KEYS; i++) writers.push(await insertWriterKey(db.sql, `raw-${i}`));
    const records: EventRecord[][] = batches.map((events) => EventBatch.parse({ events }).events);
    const upsert = (i: number) => async () => {
      await db.sql.begin((tx) => upsertEvents(tx as unknown as Sql, writers[i % KEYS], records[i]));
    };
    const warm = EventBatch.parse({ events: realisticEvents(40_000_000, 100) }).events;
    await db.sql.begin((tx) => upsertEvents(tx as unknown as Sql, writers[0], warm));
    return await runTimed(records.map((_, i) => upsert(i)), clients);
  } finally {
    await db.close();
    await location.drop();
  }
}
