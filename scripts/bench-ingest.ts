/**
 * Ingestion benchmark: 100-event batches through the real HTTP server (several keys, a few
 * concurrent clients) against the raw database upsert of the same rows, on PostgreSQL (when
 * TEST_DATABASE_URL is set) and PGlite; then the same batches re-sent unchanged.
 *
 *   TEST_DATABASE_URL=postgres://... deno run -A scripts/bench-ingest.ts [--batches 60] [--clients 4]
 */
import { parseArgs } from "node:util";
import type { Sql } from "postgres";
import { EventBatch, type EventRecord } from "../shared/event-schema.ts";
import { upsertEvents, type Writer } from "../server/db/events.ts";
import { insertWriterKey } from "../tests/support/writer-key.ts";
import { openDatabase } from "../server/db/connect.ts";
import type { DatabaseKind } from "../server/db/connect.ts";
import { createTestDatabase, testBackends } from "../tests/support/databases.ts";
import { createApiKey, startTestServer } from "../tests/support/test-server.ts";
import { realisticEvents } from "./support/realistic-events.ts";
import { fmt, percentile, runTimed } from "./support/stats.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    batches: { type: "string", default: "60" },
    clients: { type: "string", default: "4" },
  },
});
const BATCHES = Number(values.batches);
const CLIENTS = Number(values.clients);
const KEYS = 4;

interface Figures {
  label: string;
  eventsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

function figures(label: string, latencies: number[], wallMs: number): Figures {
  return {
    label,
    eventsPerSecond: (latencies.length * 100) / (wallMs / 1000),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
  };
}

async function benchHttp(kind: DatabaseKind, batches: Record<string, unknown>[][]) {
  const server = await startTestServer(kind);
  try {
    const keys: { key: string }[] = [];
    for (let i = 0; i < KEYS; i++) {
      keys.push(
        await createApiKey(server, {
          contributor: `bench-${i}`,
          rate_limit_per_minute: 100_000,
        }),
      );
    }
    const bodies = batches.map((events) => JSON.stringify({ events }));
    const send = (i: number) => async () => {
      const res = await fetch(`${server.url}/api/v1/events`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${keys[i % KEYS].key}`,
          "Content-Type": "application/json",
        },
        body: bodies[i],
      });
      const body = await res.json();
      if (res.status !== 200 || body.data.errors.length > 0) {
        throw new Error(`Batch ${i} failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      }
    };
    // Warm-up: compile paths and prepare statements outside the measurement.
    await fetch(`${server.url}/api/v1/events?limit=1`).then((r) => r.body?.cancel());
    const first = await runTimed(bodies.map((_, i) => send(i)), CLIENTS);
    const again = await runTimed(bodies.map((_, i) => send(i)), CLIENTS);
    return [
      figures("HTTP new", first.latencies, first.wallMs),
      figures("HTTP re-send", again.latencies, again.wallMs),
    ];
  } finally {
    await server.close();
  }
}

async function benchRaw(kind: DatabaseKind, batches: Record<string, unknown>[][]) {
  const location = await createTestDatabase(kind);
  const db = await openDatabase(location);
  try {
    const writers: Writer[] = [];
    for (let i = 0; i < KEYS; i++) writers.push(await insertWriterKey(db.sql, `raw-${i}`));
    const records: EventRecord[][] = batches.map((events) => EventBatch.parse({ events }).events);
    const upsert = (i: number) => async () => {
      await db.sql.begin((tx) => upsertEvents(tx as unknown as Sql, writers[i % KEYS], records[i]));
    };
    const first = await runTimed(records.map((_, i) => upsert(i)), CLIENTS);
    const again = await runTimed(records.map((_, i) => upsert(i)), CLIENTS);
    return [
      figures("raw new", first.latencies, first.wallMs),
      figures("raw re-send", again.latencies, again.wallMs),
    ];
  } finally {
    await db.close();
    await location.drop();
  }
}

const batches = Array.from({ length: BATCHES }, (_, b) => realisticEvents(b * 100, 100));
const bytes = JSON.stringify(batches[0]).length / 100;
console.log(
  `${BATCHES} batches x 100 events (${
    Math.round(bytes)
  } bytes/event), ${CLIENTS} clients, ${KEYS} keys`,
);
for (const kind of testBackends().reverse()) {
  const http = await benchHttp(kind, batches);
  const raw = await benchRaw(kind, batches);
  console.log(`\n${kind}`);
  console.log("                 events/s   p50 ms    p95 ms    p99 ms");
  for (const f of [...http, ...raw]) {
    console.log(
      `${f.label.padEnd(14)}${fmt(f.eventsPerSecond, 0)}${fmt(f.p50)}${fmt(f.p95)}${fmt(f.p99)}`,
    );
  }
  console.log(
    `HTTP/raw throughput: new ${
      (http[0].eventsPerSecond / raw[0].eventsPerSecond * 100).toFixed(0)
    }%, ` +
      `re-send ${(http[1].eventsPerSecond / raw[1].eventsPerSecond * 100).toFixed(0)}%; ` +
      `re-send speed-up over new (HTTP): ${
        (http[1].eventsPerSecond / http[0].eventsPerSecond).toFixed(2)
      }x`,
  );
}
