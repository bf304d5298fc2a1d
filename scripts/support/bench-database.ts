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
import { createVectorIndex, prepareVectorStore } from "../../server/db/vector-store.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { exists, serverUrl, withDatabase } from "../../dev-support/databases.ts";
import { realisticEvents } from "./realistic-events.ts";

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
const TEMPLATE_VERSION = 3;
const BATCH = 1000;

/** A fresh copy of a database of `size` realistic events, seeding the template if needed. */
export async function benchDatabase(kind: DatabaseKind, size: number): Promise<BenchDatabase> {
  const name = `bench_v${TEMPLATE_VERSION}_${size}`;
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
    await db.sql`VACUUM ANALYZE`;
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

/** Stores `size` realistic events under one trusted key. */
async function seedEvents(sql: Sql, size: number): Promise<void> {
  const started = performance.now();
  const writer = await insertWriterKey(sql, "bench");
  for (let first = 0; first < size; first += BATCH) {
    const batch = realisticEvents(first, Math.min(BATCH, size - first))
      .map((e) => EventBatch.parse({ events: [e] }).events[0]);
    await upsertEvents(sql, writer, batch);
    if (first > 0 && first % 100_000 === 0) {
      console.error(
        `  seeded ${first} events in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
    }
  }
  await setKeyTrust(sql, writer.keyId, true, "bench");
}

/** Gives every event a unit vector near one of 64 centres; builds the HNSW index after. */
async function loadSyntheticVectors(sql: Sql, model: string, dims: number): Promise<void> {
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
  await createVectorIndex(sql);
}
