/**
 * The vector ranking as event ids: events in AI search nearest to a query's vector, within the
 * list endpoint's filters. Whole events are built by the caller, for the page it keeps only.
 */
import type { Sql } from "postgres";
import { keyFeedsAiSearch, vectorIsCurrent } from "./ai-search-rule.ts";
import { type EventFilters, filterConditions } from "./event-filters.ts";
import { estimatedEvents } from "./filter-estimate.ts";
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
 * nearest candidates and the filters applied to those, the pool sized by the share of events the
 * filters keep (the planner's estimate, server/db/filter-estimate.ts). Filters that keep few
 * events are strict: a pool would have to be huge (1 event in 500 kept: 15,000 candidates for a
 * page of 20), and computing the distance to each kept event is the fast path. When fewer
 * candidates than estimated pass, the share that did says how wide a second pool must be, or
 * that the exact path is cheaper after all.
 */
export async function vectorMatches(
  sql: Sql,
  q: VectorQuery,
  filters: Omit<EventFilters, "q">,
  limit: number,
): Promise<Match[]> {
  const vector = JSON.stringify(q.vector);
  const kept = await estimatedEvents(sql, filters);
  if (kept <= EXACT_SCAN_ROWS) {
    const exact = await nearestOfKept(sql, q, vector, filters, limit);
    if (exact) return exact.map(toMatch);
  }
  const share = Math.min(1, kept / await vectorCount(sql));
  const first = Math.min(
    MAX_POOL,
    Math.max(MIN_POOL, limit * 2, Math.ceil(limit / share * 1.5)),
  );
  const tried = await nearestFromIndex(sql, q, vector, filters, limit, first);
  if (tried.rows.length >= limit || tried.exhausted) return tried.rows.map(toMatch);
  // Survivors per candidate, with room for the estimate's error.
  const needed = tried.rows.length === 0
    ? Infinity
    : Math.ceil((limit / tried.rows.length) * first * 1.5);
  if (needed <= MAX_POOL && needed > first) {
    const wider = await nearestFromIndex(sql, q, vector, filters, limit, needed);
    if (wider.rows.length >= limit || wider.exhausted) return wider.rows.map(toMatch);
  }
  return (await nearestOfKept(sql, q, vector, filters, limit, Infinity))!.map(toMatch);
}

/**
 * Narrowest candidate pool taken from the index (pgvector's default search width). The pool sets
 * the index's search width, and its cost: on PGlite at 100,000 vectors 100 candidates took 16 ms
 * of CPU, 40 took 9 (scripts/bench-search.ts). A page without strict filters needs about its own
 * size; events whose vector is outdated or whose key lost trust are dropped, and the wider pool
 * below refills a page they left short.
 */
const MIN_POOL = 40;

/**
 * Widest candidate pool taken from the index; filters that need more are strict enough that
 * scanning the rows they keep is cheaper.
 */
const MAX_POOL = 4_000;

/**
 * Filters estimated to keep at most this many events go straight to the exact path; it gives up
 * (for the index) past twice as many, in case the estimate was far off. On PGlite an exact
 * distance over a kept event costs about a fifth of a candidate taken from the index.
 */
const EXACT_SCAN_ROWS = 2_000;

/**
 * The exact path: every event the filters keep, nearest first. Null when more than `cap` events
 * pass (then the index is the faster way). Planned for the filters' values: which indexes find
 * the kept events depends on how few they are.
 */
async function nearestOfKept(
  sql: Sql,
  q: VectorQuery,
  vector: string,
  filters: Omit<EventFilters, "q">,
  limit: number,
  cap = EXACT_SCAN_ROWS * 2,
): Promise<Row[] | null> {
  const bound = Number.isFinite(cap) ? sql`LIMIT ${cap + 1}` : sql``;
  const rows = await plannedWithValues(sql<Row[]>`
    WITH kept AS MATERIALIZED (
      SELECT e.id, e.content_hash, e.starts_at
      FROM events e JOIN api_keys k ON k.id = e.last_key_id
      WHERE ${keyFeedsAiSearch(sql)} AND ${filterConditions(sql, filters)}
      ${bound}
    ), nearest AS (
      SELECT e.id, e.starts_at, v.embedding <=> ${vector}::vector AS distance
      FROM kept e JOIN event_embeddings v ON v.event_id = e.id
      WHERE ${vectorIsCurrent(sql, q.model)}
      ORDER BY distance, e.starts_at, e.id
      LIMIT ${limit}
    )
    -- One row even when nothing is near: it carries the count.
    SELECT n.id, n.distance, (SELECT count(*) FROM kept)::int AS kept
    FROM (SELECT 1) AS one LEFT JOIN nearest n ON true
    ORDER BY n.distance, n.starts_at, n.id`);
  if (rows[0].kept > cap) return null;
  return rows.filter((row) => row.id !== null);
}

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
    // One statement (each costs a round trip, 0.7 ms of CPU on PGlite). Stale statistics (PGlite
    // has no autovacuum) can make a sequential scan and sort look cheaper than the index; the
    // pool is small and every join below is by primary key. The iterative scan lets the index
    // go on past ef_search candidates (pgvector 0.8+).
    await tx`SELECT set_config('hnsw.ef_search', ${String(Math.min(1000, pool))}, true),
      set_config('enable_seqscan', 'off', true)
      ${q.iterativeScan ? tx`, set_config('hnsw.iterative_scan', 'relaxed_order', true)` : tx``}`;
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

// The planner's count of stored vectors, refreshed every minute: it changes slowly, and reading
// it costs a round trip.
const counts = new WeakMap<Sql, { rows: number; at: number }>();
const COUNT_TTL_MS = 60_000;

async function vectorCount(sql: Sql): Promise<number> {
  const known = counts.get(sql);
  if (known && Date.now() - known.at < COUNT_TTL_MS) return known.rows;
  const [{ rows }] = await sql<{ rows: number }[]>`
    SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = 'event_embeddings'::regclass`;
  // -1: never analysed (PGlite runs no autovacuum); assume a mid-sized table.
  const estimate = rows > 0 ? rows : 100_000;
  counts.set(sql, { rows: estimate, at: Date.now() });
  return estimate;
}
