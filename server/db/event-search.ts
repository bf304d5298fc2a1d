/**
 * The two rankings search is built from: full-text rank and vector similarity. Both take the
 * list endpoint's filters; the vector ranking only ever sees events in AI search.
 */
import type { Sql } from "postgres";
import type { StoredEvent } from "../../shared/api-schemas.ts";
import { keyFeedsAiSearch, vectorIsCurrent } from "./ai-search-rule.ts";
import { eventColumns, type EventFilters, filterConditions, toStoredEvent } from "./event-reads.ts";
import { plannedWithValues } from "./planned-with-values.ts";
import { textQueryOf } from "./text-query.ts";

/** An event with the score of one ranking. */
export interface RankedEvent {
  event: StoredEvent;
  score: number;
  /** Text ranking only: 0 when the event matches every word, higher for fewer. */
  tier?: number;
}

// deno-lint-ignore no-explicit-any
type Row = any;

/**
 * Upper bound on the matches of one tier that a text ranking scores. Scoring reads every match's
 * tsvector, so a query matching a fifth of 100,000 events would cost hundreds of milliseconds;
 * instead the soonest matches (found in start order through the index) are scored. A tier with
 * fewer matches than this is ranked exactly.
 */
export const TEXT_RANK_CANDIDATES = 100;

/**
 * Events matching `query` as full text within the filters: those matching every word first, then
 * those matching most of the words (server/db/text-query.ts); within a tier, best first
 * (ts_rank_cd) among its soonest TEXT_RANK_CANDIDATES (at least twice `limit`). The score's whole
 * part counts the tiers below the event's, its fraction is the text rank (0-1).
 */
export async function rankByText(
  sql: Sql,
  query: string,
  filters: Omit<EventFilters, "q">,
  limit: number,
): Promise<RankedEvent[]> {
  const text = await textQueryOf(sql, query);
  if (text === null) return [];
  const hits: RankedEvent[] = [];
  for (let tier = 0; tier < text.tiers.length && hits.length < limit; tier++) {
    const rows = await rankTier(sql, {
      match: text.tiers[tier],
      rank: text.rank,
      filters,
      limit: limit - hits.length,
    });
    const below = text.tiers.length - 1 - tier;
    hits.push(...rows.map((row) => ({
      ...toRanked({ ...row, score: below + Number(row.score) }),
      tier,
    })));
  }
  return hits;
}

async function rankTier(
  sql: Sql,
  o: { match: string; rank: string; filters: Omit<EventFilters, "q">; limit: number },
): Promise<Row[]> {
  const candidates = Math.max(TEXT_RANK_CANDIDATES, o.limit * 2);
  // Score only the candidates, and build the full event only for the page returned.
  return await plannedWithValues(sql<Row[]>`
    WITH candidate AS MATERIALIZED (
      SELECT e.id FROM events e
      WHERE ${filterConditions(sql, o.filters)} AND e.search_vector @@ ${o.match}::tsquery
      ORDER BY e.starts_at, e.id
      LIMIT ${candidates}
    ), best AS MATERIALIZED (
      -- Normalisation 32 maps the rank into 0-1, below the next tier's whole number.
      SELECT e.id, ts_rank_cd(e.search_vector, ${o.rank}::tsquery, 32) AS score
      FROM candidate c JOIN events e ON e.id = c.id
      ORDER BY score DESC, e.starts_at, e.id
      LIMIT ${o.limit}
    )
    SELECT ${eventColumns(sql)}, b.score
    FROM best b
    JOIN events e ON e.id = b.id
    JOIN api_keys k ON k.id = e.last_key_id
    ORDER BY b.score DESC, e.starts_at, e.id`);
}

/** What the vector ranking needs to know about the store. */
export interface VectorQuery {
  vector: number[];
  model: string;
  /** pgvector 0.8+ can keep scanning the index when filters drop candidates. */
  iterativeScan: boolean;
}

/**
 * Events in AI search (server/db/ai-search-rule.ts) nearest to the vector (cosine), within the
 * filters; score is cosine similarity.
 *
 * The HNSW index answers "nearest N vectors" fast, but the planner will not use it once filters
 * are joined in (it cannot tell how many rows they keep). So the index is asked for a pool of
 * nearest candidates and the filters applied to those. When too few survive, the share that did
 * says how wide a pool would be needed: one more pool when that is affordable, otherwise the
 * filters are strict, few rows pass them, and an exact scan of those is the fast path. (Widening
 * step by step cost seconds at 100,000 events for filters that keep one event in 500.)
 */
export async function rankByVector(
  sql: Sql,
  q: VectorQuery,
  filters: Omit<EventFilters, "q">,
  limit: number,
): Promise<RankedEvent[]> {
  const vector = JSON.stringify(q.vector);
  const first = Math.max(100, limit * 5);
  const tried = await nearestFromIndex(sql, q, vector, filters, limit, first);
  if (tried.rows.length >= limit || tried.exhausted) return tried.rows.map(toVectorHit);
  // Survivors per candidate, with room for the estimate's error.
  const needed = tried.rows.length === 0
    ? Infinity
    : Math.ceil((limit / tried.rows.length) * first * 1.5);
  if (needed <= MAX_POOL) {
    const wider = await nearestFromIndex(sql, q, vector, filters, limit, needed);
    if (wider.rows.length >= limit || wider.exhausted) return wider.rows.map(toVectorHit);
  }
  const rows = await sql<Row[]>`
    SELECT ${eventColumns(sql)}, v.embedding <=> ${vector}::vector AS distance
    FROM event_embeddings v
    JOIN events e ON e.id = v.event_id
    JOIN api_keys k ON k.id = e.last_key_id
    WHERE ${vectorIsCurrent(sql, q.model)} AND ${keyFeedsAiSearch(sql)}
      AND ${filterConditions(sql, filters)}
    ORDER BY distance, e.starts_at, e.id
    LIMIT ${limit}`;
  return rows.map(toVectorHit);
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
      SELECT ${eventColumns(tx)}, v.distance, (SELECT count(*) FROM nearest) AS candidates
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

function toVectorHit(row: Row): RankedEvent {
  const { distance, ...event } = row;
  return { event: toStoredEvent(event), score: 1 - Number(distance) };
}

function toRanked(row: Row): RankedEvent {
  const { score, ...event } = row;
  return { event: toStoredEvent(event), score: Number(score) };
}
