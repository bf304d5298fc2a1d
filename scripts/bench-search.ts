/**
 * Search and embedding figures: local embedding throughput; text, semantic and hybrid latency
 * (p50/p95) at each size on PGlite, and text on PostgreSQL when TEST_DATABASE_URL is set; and
 * ingestion p95 through the HTTP server while the embedding worker is idle and while it is busy.
 * At these sizes events get synthetic clustered vectors (the local model makes about 10 a
 * second); queries are embedded by the real model, once each (later runs hit the query cache).
 *
 *   deno run -A scripts/bench-search.ts [--sizes 10000,100000] [--runs 200] [--skip-ingest]
 *     [--only-ingest] [--rounds 5] [--niceness 0-19]
 *
 * --niceness sets the local model thread's priority as EMBEDDINGS_LOCAL_NICENESS does (0 is how
 * the model ran before it yielded to request handling); --rounds is the busy/idle rounds.
 */
import { parseArgs } from "node:util";
import type { Sql } from "postgres";
import { EventBatch } from "../shared/event-schema.ts";
import { openDatabase } from "../server/db/connect.ts";
import { migrate } from "../server/db/migrate.ts";
import { insertWriterKey } from "../tests/support/writer-key.ts";
import { upsertEvents } from "../server/db/events.ts";
import { setKeyTrust } from "../server/db/key-trust.ts";
import { LocalProvider } from "../server/embeddings/local-provider.ts";
import { embeddingText } from "../server/embeddings/embedding-text.ts";
import { startAiSearch } from "../server/embeddings/start-ai-search.ts";
import { searchEvents, type SearchMode } from "../server/search/search-events.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { realisticEvents } from "./support/realistic-events.ts";
import { fmt, percentile } from "./support/stats.ts";
import { measureIngestionUnderEmbedding } from "./support/bench-ingest-busy.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "10000,100000" },
    runs: { type: "string", default: "200" },
    "skip-ingest": { type: "boolean", default: false },
    "only-ingest": { type: "boolean", default: false },
    rounds: { type: "string", default: "5" },
    niceness: { type: "string" },
  },
});
const SIZES = values["only-ingest"] ? [] : values.sizes.split(",").map(Number);
const NICENESS = values.niceness === undefined ? undefined : Number(values.niceness);
const RUNS = Number(values.runs);
const QUERIES = [
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
];

if (!values["only-ingest"]) {
  console.log("Local embedding (Universal Sentence Encoder lite, in a Worker, one core)");
  await benchLocalEmbedding();
}

for (const size of SIZES) {
  const dataDir = await Deno.makeTempDir({ prefix: "bench-search-" });
  const db = await openDatabase({ dataDir });
  await migrate(db.sql);
  const ai = await startAiSearch(db, { provider: new LocalProvider(), runWorker: false });
  try {
    const load = await seed(db.sql, size);
    const status = await ai.availability.status();
    if (!status.available) throw new Error(status.reason);
    const indexMs = await loadSyntheticVectors(db.sql, ai.provider.model, 512);
    // PGlite runs no autovacuum: give the planner the statistics a server would have by now.
    await db.sql`ANALYZE`;
    console.log(
      `\nPGlite, ${size} events (loaded in ${(load / 1000).toFixed(0)} s; ` +
        `vectors + HNSW index in ${(indexMs / 1000).toFixed(0)} s)`,
    );
    for (const mode of ["text", "semantic", "hybrid"] as SearchMode[]) {
      await report(mode, (q) => searchEvents(db.sql, ai, { q, mode, filters: {}, limit: 20 }));
    }
  } finally {
    await ai.stop();
    await db.close();
    await Deno.remove(dataDir, { recursive: true });
  }
  if (Deno.env.get("TEST_DATABASE_URL")) {
    const location = await createTestDatabase("postgres");
    const pg = await openDatabase(location);
    const ai15 = await startAiSearch(pg, {
      provider: new LocalProvider(),
      runWorker: false,
      log: () => {},
    });
    try {
      const load = await seed(pg.sql, size);
      await pg.sql`ANALYZE`;
      console.log(`PostgreSQL 15, ${size} events (loaded in ${(load / 1000).toFixed(0)} s)`);
      await report(
        "text",
        (q) => searchEvents(pg.sql, ai15, { q, mode: "text", filters: {}, limit: 20 }),
      );
    } finally {
      await ai15.stop();
      await pg.close();
      await location.drop();
    }
  }
}

if (!values["skip-ingest"]) {
  await measureIngestionUnderEmbedding({ rounds: Number(values.rounds), niceness: NICENESS });
}

async function report(mode: string, run: (q: string) => Promise<unknown>): Promise<void> {
  for (const q of QUERIES) await run(q); // warm caches and embed each query once
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run(QUERIES[i % QUERIES.length]);
    times.push(performance.now() - t);
  }
  console.log(
    `  ${mode.padEnd(9)} p50 ${fmt(percentile(times, 50))} ms   p95 ${
      fmt(percentile(times, 95))
    } ms`,
  );
}

async function benchLocalEmbedding(): Promise<void> {
  const provider = new LocalProvider({ niceness: NICENESS });
  try {
    const events = realisticEvents(0, 128).map((e) => EventBatch.parse({ events: [e] }).events[0]);
    const texts = events.map(embeddingText);
    await provider.embed(texts.slice(0, 4));
    let t = performance.now();
    for (let i = 0; i < texts.length; i += 32) await provider.embed(texts.slice(i, i + 32));
    const docsPerSecond = texts.length / ((performance.now() - t) / 1000);
    const titles = events.map((e) => e.title);
    t = performance.now();
    for (let i = 0; i < titles.length; i += 32) await provider.embed(titles.slice(i, i + 32));
    const titlesPerSecond = titles.length / ((performance.now() - t) / 1000);
    const single: number[] = [];
    for (const q of QUERIES) {
      t = performance.now();
      await provider.embed([q], { priority: "query" });
      single.push(performance.now() - t);
    }
    const avgChars = texts.reduce((s, x) => s + x.length, 0) / texts.length;
    console.log(`  event texts (avg ${avgChars.toFixed(0)} chars): ${fmt(docsPerSecond)} /s`);
    console.log(`  titles:                          ${fmt(titlesPerSecond)} /s`);
    console.log(`  one search query: p50 ${fmt(percentile(single, 50))} ms`);
  } finally {
    await provider.close();
  }
}

/** Stores `size` realistic events under a trusted key; returns the time it took. */
async function seed(sql: Sql, size: number): Promise<number> {
  const started = performance.now();
  const writer = await insertWriterKey(sql, "bench");
  for (let first = 0; first < size; first += 500) {
    const batch = realisticEvents(first, Math.min(500, size - first))
      .map((e) => EventBatch.parse({ events: [e] }).events[0]);
    await upsertEvents(sql, writer, batch);
  }
  await setKeyTrust(sql, writer.keyId, true, "bench");
  return performance.now() - started;
}

/**
 * Gives every event a unit vector near one of 64 cluster centres, as real embeddings of events on
 * a few dozen themes would be; drops the HNSW index for the load and builds it after.
 */
async function loadSyntheticVectors(sql: Sql, model: string, dims: number): Promise<number> {
  const started = performance.now();
  let seed = 7;
  const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32) - 0.5;
  const centres = Array.from({ length: 64 }, () => Array.from({ length: dims }, random));
  await sql`DROP INDEX IF EXISTS event_embeddings_hnsw`;
  const ids = await sql<{ id: string; content_hash: string }[]>`
    SELECT id, content_hash FROM events ORDER BY id`;
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    const vectors = chunk.map((_, j) => {
      const c = centres[(i + j) % centres.length];
      const v = c.map((x) => x + random() * 0.6);
      const norm = Math.hypot(...v);
      return JSON.stringify(v.map((x) => Number((x / norm).toFixed(6))));
    });
    await sql`
      INSERT INTO event_embeddings (event_id, model, content_hash, text_hash, embedding)
      SELECT id, ${model}, content_hash, 'synthetic', vector::vector
      FROM unnest(${chunk.map((c) => c.id)}::uuid[], ${chunk.map((c) => c.content_hash)}::text[],
                  ${vectors}::text[]) AS r(id, content_hash, vector)`;
  }
  await sql`SET maintenance_work_mem = '512MB'`;
  await sql`CREATE INDEX event_embeddings_hnsw ON event_embeddings
    USING hnsw (embedding vector_cosine_ops)`;
  return performance.now() - started;
}
