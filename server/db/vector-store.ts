/**
 * The part of the schema that needs pgvector. It cannot live in the numbered migrations, which
 * must apply on any PostgreSQL: it is set up here, at run time, only where the `vector` extension
 * can be created, and sized for the embedding model in use. Without it AI search is unavailable
 * (and says why) while everything else works; nothing is lost, since vectors derive from events.
 */
import type { Sql, TransactionSql } from "postgres";

export type VectorStoreStatus =
  | { available: true; model: string; dimensions: number; iterativeScan: boolean }
  | { available: false; reason: string };

/** pgvector cannot build an HNSW index on vectors longer than this. */
export const MAX_INDEXED_DIMENSIONS = 2000;

// Serialises preparation by several processes sharing one database.
const PREPARE_LOCK_ID = 4_711_002;

/**
 * Creates the extension if it can, gives `event_embeddings` a vector column of the model's size
 * with an HNSW cosine index, and records the model as the one search compares against. Vectors of
 * another size are dropped (they cannot share the column, and the worker remakes them); vectors of
 * another model of the same size stay until replaced, and search ignores them meanwhile.
 */
export async function prepareVectorStore(
  sql: Sql,
  model: string,
  dimensions: number,
): Promise<VectorStoreStatus> {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_INDEXED_DIMENSIONS) {
    return {
      available: false,
      reason: `vectors of ${dimensions} dimensions cannot be indexed (pgvector's HNSW limit is ` +
        `${MAX_INDEXED_DIMENSIONS}); set EMBEDDINGS_DIMENSIONS to ${MAX_INDEXED_DIMENSIONS} or less`,
    };
  }
  const missing = await missingExtensionReason(sql);
  if (missing) return { available: false, reason: missing };
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS vector`;
  } catch (err) {
    return { available: false, reason: createExtensionFailure(err) };
  }
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${PREPARE_LOCK_ID})`;
    const [column] = await tx<{ type: string }[]>`
      SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
      WHERE attrelid = 'event_embeddings'::regclass AND attname = 'embedding'
        AND NOT attisdropped`;
    if (column?.type !== `vector(${dimensions})`) {
      await tx`DELETE FROM event_embeddings`;
      await tx`ALTER TABLE event_embeddings DROP COLUMN IF EXISTS embedding`;
      // A type modifier cannot be a bind parameter; `dimensions` is a checked integer.
      await tx.unsafe(
        `ALTER TABLE event_embeddings ADD COLUMN embedding vector(${dimensions}) NOT NULL`,
      );
      await createVectorIndex(tx);
    }
    await tx`
      INSERT INTO embedding_model (model, dimensions) VALUES (${model}, ${dimensions})
      ON CONFLICT (singleton) DO UPDATE SET
        model = EXCLUDED.model, dimensions = EXCLUDED.dimensions,
        changed_at = CASE WHEN embedding_model.model = EXCLUDED.model
                     THEN embedding_model.changed_at ELSE now() END`;
  });
  const [{ version }] = await sql<{ version: string }[]>`
    SELECT extversion AS version FROM pg_extension WHERE extname = 'vector'`;
  const [major, minor] = version.split(".").map(Number);
  // hnsw.iterative_scan arrived in pgvector 0.8.0.
  return { available: true, model, dimensions, iterativeScan: major > 0 || minor >= 8 };
}

/** Why the extension cannot be created, when that shows without trying (and logging an error). */
async function missingExtensionReason(sql: Sql): Promise<string | null> {
  const [row] = await sql<{ available: boolean; installed: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available,
           EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS installed`;
  if (row.available || row.installed) return null;
  return 'the database has no pgvector extension (extension "vector" is not available on ' +
    "this PostgreSQL server); install pgvector there, and AI search starts by itself within " +
    "minutes, embedding every trusted event";
}

function createExtensionFailure(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e.code === "42501") {
    return "the database user may not create the pgvector extension; have a superuser run " +
      "CREATE EXTENSION vector in this database";
  }
  return `creating the pgvector extension failed: ${e.message ?? String(err)}`;
}

/**
 * The HNSW index of the vectors. Sparser than pgvector's defaults (m 16, ef_construction 64):
 * every new vector updates fewer neighbour lists, which made storing a vector about seven times
 * cheaper on PGlite (2 against 15 ms at 512 dimensions), with the same recall@20 on the
 * benchmark's 100,000 vectors; searches widen ef_search with their candidate pool anyway
 * (server/search/ranked-events.ts). Measured in docs/benchmarks.md.
 */
export async function createVectorIndex(sql: Sql | TransactionSql): Promise<void> {
  await sql`
    CREATE INDEX event_embeddings_hnsw ON event_embeddings
    USING hnsw (embedding vector_cosine_ops) WITH (m = 8, ef_construction = 32)`;
}
