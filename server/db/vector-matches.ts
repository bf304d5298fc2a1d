/**
 * The vector ranking as event ids: events in AI search nearest to a query's vector, within the
 * list endpoint's filters. Whole events are built by the caller, for the page it keeps only.
 */
import type { Sql } from "postgres";
import { keyFeedsAiSearch, vectorIsCurrent } from "./ai-search-rule.ts";
import { type EventFilters, filterConditions } from "./event-reads.ts";
import { plannedWithValues } from "./planned-with-values.ts";
import type { Match } from "./text-matches.ts";

// deno-lint-ignore no-explicit-any
type Row = any;

/** What the vector ranking needs to know about the store. */
export interface VectorQuery {
  vector: number[];
  model: string;
  /** pgvector 0.8+ can keep scanning the index when filters drop candidates. */
  iterativeScan: boolean;
}

/**
 * Events in AI search (server/db/ai-search-rule.ts) nearest to the vector (cosine), within the
 * filters, by id; score is cosine similarity.
 *
 * The HNSW index answers "nearest N vectors" fast, but the planner will not use it once filters
 * are joined in (it cannot tell how many rows they keep). So the index is asked for a pool of
 * nearest candidates and the filters applied to those. When too few survive, the share that did
 * says how wide a pool would be needed: one more pool when that is affordable, otherwise the
 * filters are strict, few rows pass them, and an exact scan of those is the fast path. (Widening
 * step by step cost seconds at 100,000 events for filters that keep one event in 500.)
 */
export async function vectorMatches(
  sql: Sql,
  q: VectorQuery,
  filters: Omit<EventFilters, "q">,
  limit: number,
): Promise<Match[]> {
  const vector = JSON.stringify(q.vector);
  const first = Math.max(100, limit * 3);
  const tried = await nearestFromIndex(sql, q, vector, filters, limit, first);
  if (tried.rows.length >= limit || tried.exhausted) return tried.rows.map(toMatch);
  // Survivors per candidate, with room for the estimate's error.
  const needed = tried.rows.length === 0
    ? Infinity
    : Math.ceil((limit / tried.rows.length) * first * 1.5);
  if (needed <= MAX_POOL) {
    const wider = await nearestFromIndex(sql, q, vector, filters, limit, needed);
    if (wider.rows.length >= limit || wider.exhausted) return wider.rows.map(toMatch);
  }
  // Planned for the filters' values: which indexes find the rows depends on how few they keep.
  const rows = await plannedWithValues(sql<Row[]>`
    SELECT e.id, v.embedding <=> ${vector}::vector AS distance
    FROM event_embeddings v
    JOIN events e ON e.id = v.event_id
    JOIN api_keys k ON k.id = e.last_key_id
    WHERE ${vectorIsCurrent(sql, q.model)} AND ${keyFeedsAiSearch(sql)}
      AND ${filterConditions(sql, filters)}
    ORDER BY distance, e.starts_at, e.id
    LIMIT ${limit}`);
  return rows.map(toMatch);
}

/**
 * Widest candidate pool taken from the index; filters that need more are strict enough that
 * scanning the rows they keep is cheaper.
 */
const MAX_POOL = 4_000;

async function nearestFromIndex(
  sql: Sql,
  q: VectorQuery,
  vector: string,
  filters: Omit<EventFilters, "q">,
  limit: number,
  pool: number,
): Promise<{ rows: Row[]; exhausted: boolean }> {
  return await sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    await tx`SELECT set_config('hnsw.ef_search', ${String(Math.min(1000, pool))}, true)`;
    // Stale statistics (PGlite has no autovacuum) can make a sequential scan and sort look
    // cheaper than the index; the pool is small and every join below is by primary key.
    await tx`SELECT set_config('enable_seqscan', 'off', true)`;
    // Lets the index scan go on past ef_search candidates (pgvector 0.8+).
    if (q.iterativeScan) await tx`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)`;
    const rows = await tx<Row[]>`
      WITH nearest AS MATERIALIZED (
        SELECT event_id, model, content_hash, embedding <=> ${vector}::vector AS distance
        FROM event_embeddings WHERE model = ${q.model}
        ORDER BY embedding <=> ${vector}::vector
        LIMIT ${pool}
      )
      SELECT e.id, v.distance, (SELECT count(*) FROM nearest) AS candidates
      FROM nearest v
      JOIN events e ON e.id = v.event_id
      JOIN api_keys k ON k.id = e.last_key_id
      WHERE ${vectorIsCurrent(tx, q.model)} AND ${keyFeedsAiSearch(tx)}
        AND ${filterConditions(tx, filters)}
      -- relaxed_order may return neighbours slightly out of order.
      ORDER BY v.distance, e.starts_at, e.id
      LIMIT ${limit}`;
    const candidates = Number(rows[0]?.candidates ?? 0);
    return {
      rows: rows.map(({ candidates: _c, ...row }: Row) => row),
      exhausted: rows.length > 0 ? candidates < pool : await fewerThan(tx, q.model, pool),
    };
  });
}

/** Whether the model has fewer than `pool` vectors: then a wider pool cannot find more. */
async function fewerThan(sql: Sql, model: string, pool: number): Promise<boolean> {
  const [{ n }] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM event_embeddings WHERE model = ${model} LIMIT ${pool}
    ) counted`;
  return n < pool;
}

function toMatch(row: Row): Match {
  return { id: row.id, score: 1 - Number(row.distance) };
}
