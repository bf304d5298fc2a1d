/**
 * The two rankings search is built from: full-text rank and vector similarity. Both take the
 * list endpoint's filters; the vector ranking only ever sees events in AI search.
 */
import type { Sql } from "postgres";
import type { StoredEvent } from "../../shared/api-schemas.ts";
import { eventColumns, type EventFilters, filterConditions, toStoredEvent } from "./event-reads.ts";

/** An event with the score of one ranking. */
export interface RankedEvent {
  event: StoredEvent;
  score: number;
}

// deno-lint-ignore no-explicit-any
type Row = any;

/** Events matching `query` as full text, best first (ts_rank_cd), within the filters. */
export async function rankByText(
  sql: Sql,
  query: string,
  filters: Omit<EventFilters, "q">,
  limit: number,
): Promise<RankedEvent[]> {
  const rows = await sql<Row[]>`
    SELECT ${eventColumns(sql)},
           ts_rank_cd(e.search_vector, websearch_to_tsquery('english', ${query})) AS score
    FROM events e JOIN api_keys k ON k.id = e.last_key_id
    WHERE ${filterConditions(sql, { ...filters, q: query })}
    ORDER BY score DESC, e.starts_at, e.id
    LIMIT ${limit}`;
  return rows.map(toRanked);
}

/** What the vector ranking needs to know about the store. */
export interface VectorQuery {
  vector: number[];
  model: string;
  /** pgvector 0.8+ can keep scanning the index when filters drop candidates. */
  iterativeScan: boolean;
}

/**
 * Events in AI search nearest to the vector (cosine, through the HNSW index), within the filters.
 * Score is cosine similarity. In AI search means: last written by a trusted, unrevoked key, and
 * a vector of the current model made from the event's current content.
 */
export async function rankByVector(
  sql: Sql,
  q: VectorQuery,
  filters: Omit<EventFilters, "q">,
  limit: number,
): Promise<RankedEvent[]> {
  const vector = JSON.stringify(q.vector);
  const rows = await sql.begin(async (tx) => {
    // Enough candidates that filters rarely leave the page short.
    await tx`SELECT set_config('hnsw.ef_search', ${String(Math.max(40, limit * 2))}, true)`;
    if (q.iterativeScan) await tx`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)`;
    return await tx<Row[]>`
      SELECT * FROM (
        SELECT ${eventColumns(tx as unknown as Sql)},
               v.embedding <=> ${vector}::vector AS distance
        FROM event_embeddings v
        JOIN events e ON e.id = v.event_id
        JOIN api_keys k ON k.id = e.last_key_id
        WHERE v.model = ${q.model} AND v.content_hash = e.content_hash
          AND k.trusted AND k.revoked_at IS NULL
          AND ${filterConditions(tx as unknown as Sql, filters)}
        ORDER BY v.embedding <=> ${vector}::vector
        LIMIT ${limit}
      ) nearest
      -- relaxed_order may return neighbours slightly out of order.
      ORDER BY distance, starts_at, id`;
  });
  return rows.map((r: Row) => {
    const { distance, ...event } = r;
    return { event: toStoredEvent(event), score: 1 - Number(distance) };
  });
}

function toRanked(row: Row): RankedEvent {
  const { score, ...event } = row;
  return { event: toStoredEvent(event), score: Number(score) };
}
