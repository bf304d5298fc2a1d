/**
 * Databases of N realistic events for the benchmarks, on PGlite or PostgreSQL. Seeding 100,000
 * events takes minutes (a quarter of an hour for PGlite on a busy machine), so a seeded database
 * is kept as a template (a PGlite directory under .cache/, a database on the server) named after
 * its size, and each benchmark runs on a fresh copy of it, brought up to the current migrations
 * by the service that opens it.
 *
 * Events are written by a trusted key; on PGlite (the only one here with pgvector) each also gets
 * a synthetic vector near one of 64 cluster centres, as real embeddings of events on a few dozen
 * themes would be: the local model makes about ten a second, far too slow for these sizes.
 */
import postgres, { type Sql } from "postgres";
import { EventBatch } from "../../shared/event-schema.ts";
import { type DatabaseKind, openDatabase } from "../../server/db/connect.ts";
import { migrate } from "../../server/db/migrate.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { setKeyTrust } from "../../server/db/key-trust.ts";
import { LOCAL_MODEL } from "../../server/embeddings/local-provider.ts";
import { EMBEDDING_TEXT_VERSION } from "../../server/embeddings/embedding-text.ts";
import { createVectorIndex, prepareVectorStore } from "../../server/db/vector-store.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { exists, serverUrl, withDatabase } from "../../dev-support/databases.ts";
import { realisticEvents } from "./realistic-events.ts";
import { DUPLICATE_RULES_VERSION } from "../../server/duplicates/rules-version.ts";

/** A fresh copy of a seeded database, and how to remove it. */
export interface BenchDatabase {
  kind: DatabaseKind;
  size: number;
  dataDir: string;
  databaseUrl?: string;
  /** Whether events have vectors (of the local model) and an HNSW index. */
  vectors: boolean;
  drop(): Promise<void>;
}

const CACHE_DIR = new URL("../../.cache/", import.meta.url).pathname;
/** Part of a template's name: raise it when what a template holds changes beyond migrations. */
const TEMPLATE_VERSION = 5;
const BATCH = 2000;

/** A fresh copy of a database of `size` realistic events, seeding the template if needed. */
export async function benchDatabase(kind: DatabaseKind, size: number): Promise<BenchDatabase> {
  // Named by the duplicate rules too: a template stored under older rules would have a benchmark's
  // server re-detect every event beside the searches it times.
  const name = `bench_v${TEMPLATE_VERSION}_rules${DUPLICATE_RULES_VERSION}_${size}`;
  if (kind === "pglite") {
    const template = `${CACHE_DIR}${name}`;
    if (!(await exists(template))) await seedPglite(template, size);
    const dataDir = await Deno.makeTempDir({ prefix: "bench-db-" });
    const copy = await new Deno.Command("cp", { args: ["-r", `${template}/.`, dataDir] }).output();
    if (!copy.success) {
      throw new Error(`Cannot copy ${template}: ${new TextDecoder().decode(copy.stderr)}`);
    }
    return {
      kind,
      size,
      dataDir,
      vectors: true,
      drop: () => Deno.remove(dataDir, { recursive: true }),
    };
  }
  const server = serverUrl();
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  try {
    const [{ found }] = await admin<{ found: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = ${name}) AS found`;
    if (!found) await seedPostgres(admin, name, size);
    const copy = `${name}_run_${crypto.randomUUID().slice(0, 8)}`;
    await admin.unsafe(`CREATE DATABASE "${copy}" TEMPLATE "${name}"`);
    return {
      kind,
      size,
      dataDir: "",
      databaseUrl: withDatabase(server, copy),
      vectors: false,
      drop: async () => {
        const a = postgres(server, { max: 1, onnotice: () => {} });
        await a.unsafe(`DROP DATABASE IF EXISTS "${copy}" WITH (FORCE)`);
        await a.end();
      },
    };
  } finally {
    await admin.end();
  }
}

async function seedPglite(template: string, size: number): Promise<void> {
  const building = `${template}.${crypto.randomUUID().slice(0, 8)}`;
  const db = await openDatabase({ dataDir: building });
  try {
    await migrate(db.sql);
    await seedEvents(db.sql, size);
    const store = await prepareVectorStore(db.sql, LOCAL_MODEL, 512);
    if (!store.available) throw new Error(`Cannot store vectors: ${store.reason}`);
    await loadSyntheticVectors(db.sql, LOCAL_MODEL, 512);
    // PGlite runs no autovacuum: give the planner the statistics a server would have by now.
    const started = performance.now();
    await db.sql`VACUUM ANALYZE`;
    progress("vacuumed and analysed", started);
  } finally {
    await db.close();
  }
  await Deno.rename(building, template);
}

async function seedPostgres(admin: Sql, name: string, size: number): Promise<void> {
  const building = `${name}_building_${crypto.randomUUID().slice(0, 8)}`;
  await admin.unsafe(`CREATE DATABASE "${building}"`);
  const db = await openDatabase({ dataDir: "", databaseUrl: withDatabase(serverUrl(), building) });
  try {
    await migrate(db.sql);
    await seedEvents(db.sql, size);
    await db.sql`VACUUM ANALYZE`;
  } finally {
    await db.close();
  }
  await admin.unsafe(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
}

/**
 * Stores `size` realistic events under one trusted key, through the service's own upsert. The
 * events' secondary indexes (GIN on the text and topics, GiST on spans, the B-trees) are dropped
 * first and built once at the end: maintaining them row by row was most of the cost (over 25
 * minutes for 100,000 events on PGlite at load 8), and a bulk build makes the same indexes.
 */
async function seedEvents(sql: Sql, size: number): Promise<void> {
  const started = performance.now();
  const writer = await insertWriterKey(sql, "bench");
  const indexes = await withoutSecondaryIndexes(sql, "events");
  for (let first = 0; first < size; first += BATCH) {
    const batch = realisticEvents(first, Math.min(BATCH, size - first))
      .map((e) => EventBatch.parse({ events: [e] }).events[0]);
    await upsertEvents(sql, writer, batch);
    if (first > 0 && first % 50_000 === 0) progress(`${first} events stored`, started);
  }
  progress(`${size} events stored`, started);
  await sql`SET maintenance_work_mem = '512MB'`;
  for (const definition of indexes) await sql.unsafe(definition);
  progress(`${indexes.length} indexes built`, started);
  await setKeyTrust(sql, writer.keyId, true, "bench");
  // Stored without detection (one writer: no duplicates to find). Said to be under the current
  // rules, or a benchmark's server would time its searches beside a re-detection of every event.
  await sql`UPDATE duplicate_rules SET version = ${DUPLICATE_RULES_VERSION}`;
}

/** Drops a table's indexes that back no constraint; returns their definitions to rebuild them. */
async function withoutSecondaryIndexes(sql: Sql, table: string): Promise<string[]> {
  const indexes = await sql<{ name: string; definition: string }[]>`
    SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
    WHERE i.schemaname = current_schema() AND i.tablename = ${table}
      AND NOT EXISTS (
        SELECT 1 FROM pg_constraint c
        WHERE c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`;
  for (const { name } of indexes) await sql.unsafe(`DROP INDEX "${name.replaceAll('"', '""')}"`);
  return indexes.map((i) => i.definition);
}

function progress(what: string, since: number): void {
  console.error(`  seeding: ${what} at ${((performance.now() - since) / 1000).toFixed(0)} s`);
}

/**
 * Gives every event a unit vector near one of 64 centres, and builds the HNSW index after. Sending
 * one vector per event as text cost more than storing the events (37 s for 10,000 on PGlite: the
 * text form of 512 numbers is parsed in WebAssembly), so only 2,048 points around the centres and
 * 61 small offsets are sent, and each event gets the normalised sum of one of each (row i takes
 * point i mod 2048 and offset i mod 61: 124,928 distinct vectors before repeating).
 */
async function loadSyntheticVectors(sql: Sql, model: string, dims: number): Promise<void> {
  const started = performance.now();
  let seed = 7;
  const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32) - 0.5;
  const centres = Array.from({ length: 64 }, () => Array.from({ length: dims }, random));
  const text = (v: number[]) => JSON.stringify(v.map((x) => Number(x.toFixed(6))));
  const points = Array.from(
    { length: 2048 },
    (_, i) => text(centres[i % centres.length].map((x) => x + random() * 0.5)),
  );
  const offsets = Array.from({ length: 61 }, () => text(centres[0].map(() => random() * 0.3)));
  await sql`DROP INDEX IF EXISTS event_embeddings_hnsw`;
  await sql.unsafe(`CREATE TEMP TABLE bench_points (n int PRIMARY KEY, v vector(${dims}))`);
  await sql.unsafe(`CREATE TEMP TABLE bench_offsets (n int PRIMARY KEY, v vector(${dims}))`);
  for (let i = 0; i < points.length; i += 256) {
    const chunk = points.slice(i, i + 256);
    await sql`
      INSERT INTO bench_points (n, v)
      SELECT ${i} + k - 1, v::vector FROM unnest(${chunk}::text[]) WITH ORDINALITY AS r(v, k)`;
  }
  await sql`
    INSERT INTO bench_offsets (n, v)
    SELECT k - 1, v::vector FROM unnest(${offsets}::text[]) WITH ORDINALITY AS r(v, k)`;
  await sql`
    INSERT INTO event_embeddings
      (event_id, model, content_hash, text_hash, text_version, embedding)
    SELECT e.id, ${model}, e.content_hash, 'synthetic', ${EMBEDDING_TEXT_VERSION},
           l2_normalize(p.v + o.v)
    FROM (SELECT id, content_hash, row_number() OVER (ORDER BY id) - 1 AS i FROM events) AS e
    JOIN bench_points p ON p.n = e.i % 2048
    JOIN bench_offsets o ON o.n = e.i % 61`;
  await sql`DROP TABLE bench_points, bench_offsets`;
  progress("vectors stored", started);
  await sql`SET maintenance_work_mem = '512MB'`;
  await createVectorIndex(sql);
  progress("vector index built", started);
}
