/** Storing vectors, and what operators see of the embedding work. */
import type { Sql } from "postgres";
import { inAiSearch, keyFeedsAiSearch, waitsForVector } from "./ai-search-rule.ts";

/** A vector made for an event from one version of its content. */
export interface NewEmbedding {
  eventId: string;
  contentHash: string;
  textHash: string;
  /** Null when the event's existing vector was made from the same text and is kept. */
  vector: number[] | null;
}

/** What a worker stores: vectors of one model, made from one version of the embedded text. */
export interface SaveEmbeddingsOptions {
  worker: string;
  model: string;
  /** The version of the embedded text (EMBEDDING_TEXT_VERSION) the vectors were made from. */
  textVersion: number;
  items: NewEmbedding[];
}

/**
 * Stores vectors and ends the worker's claims on them, in one transaction. A vector whose event
 * changed while it was being made is not stored: the new content is still to be embedded; nor
 * one that would replace a vector of the same content made from a newer text. Returns the ids of
 * the events that now have a current vector.
 */
export async function saveEmbeddings(sql: Sql, o: SaveEmbeddingsOptions): Promise<string[]> {
  const { worker, model, textVersion, items } = o;
  const fresh = items.filter((i) => i.vector !== null);
  const kept = items.filter((i) => i.vector === null);
  return await sql.begin(async (tx) => {
    const saved: string[] = [];
    if (fresh.length > 0) {
      const rows = await tx<{ event_id: string }[]>`
        INSERT INTO event_embeddings AS v
          (event_id, model, content_hash, text_hash, text_version, embedding)
        SELECT r.id, ${model}, r.content_hash, r.text_hash, ${textVersion}, r.vector::vector
        FROM unnest(${fresh.map((i) => i.eventId)}::uuid[],
                    ${fresh.map((i) => i.contentHash)}::text[],
                    ${fresh.map((i) => i.textHash)}::text[],
                    ${fresh.map((i) => JSON.stringify(i.vector))}::text[])
             AS r(id, content_hash, text_hash, vector)
        JOIN events e ON e.id = r.id AND e.content_hash = r.content_hash
        ON CONFLICT (event_id) DO UPDATE SET
          model = EXCLUDED.model, content_hash = EXCLUDED.content_hash,
          text_hash = EXCLUDED.text_hash, text_version = EXCLUDED.text_version,
          embedding = EXCLUDED.embedding, embedded_at = now()
          WHERE NOT (v.model = EXCLUDED.model AND v.content_hash = EXCLUDED.content_hash
                     AND v.text_version > EXCLUDED.text_version)
        RETURNING v.event_id`;
      saved.push(...rows.map((r) => r.event_id));
    }
    if (kept.length > 0) {
      // The text did not change under this version: the vector stays and says so.
      const rows = await tx<{ event_id: string }[]>`
        UPDATE event_embeddings v SET content_hash = r.content_hash, embedded_at = now(),
          text_version = greatest(v.text_version, ${textVersion})
        FROM unnest(${kept.map((i) => i.eventId)}::uuid[],
                    ${kept.map((i) => i.contentHash)}::text[],
                    ${kept.map((i) => i.textHash)}::text[]) AS r(id, content_hash, text_hash),
             events e
        WHERE v.event_id = r.id AND e.id = r.id AND e.content_hash = r.content_hash
          AND v.model = ${model} AND v.text_hash = r.text_hash
        RETURNING v.event_id`;
      saved.push(...rows.map((r) => r.event_id));
    }
    await tx`
      DELETE FROM embedding_claims
      WHERE event_id = ANY(${items.map((i) => i.eventId)}::uuid[]) AND worker = ${worker}`;
    return saved;
  });
}

/** How many events AI search holds, and how far it is behind the data. */
export interface AiSearchCounts {
  /** Events in AI search: what semantic search can find. */
  inAiSearch: number;
  /** Events that belong in AI search but still wait for a current vector of the model. */
  waiting: number;
  /** Of those, events held back after failed attempts. */
  failing: number;
  lastError: string | null;
}

/** Counts the events of trusted keys by whether they have a current vector of `model` yet. */
export async function aiSearchCounts(sql: Sql, model: string): Promise<AiSearchCounts> {
  const [row] = await sql<
    { in_ai_search: number; waiting: number; failing: number; last_error: string | null }[]
  >`
    SELECT count(*) FILTER (WHERE ${inAiSearch(sql)})::int AS in_ai_search,
           count(*) FILTER (WHERE ${waitsForVector(sql, model)})::int AS waiting,
           count(*) FILTER (WHERE ${waitsForVector(sql, model)} AND c.attempts > 0)::int
             AS failing,
           (array_agg(c.last_error ORDER BY c.claimed_until DESC)
              FILTER (WHERE c.last_error IS NOT NULL AND ${waitsForVector(sql, model)}))[1]
             AS last_error
    FROM events e
    JOIN api_keys k ON k.id = e.last_key_id
    LEFT JOIN event_embeddings v ON v.event_id = e.id
    LEFT JOIN embedding_claims c ON c.event_id = e.id
    WHERE ${keyFeedsAiSearch(sql)}`;
  return {
    inAiSearch: row.in_ai_search,
    waiting: row.waiting,
    failing: row.failing,
    lastError: row.last_error,
  };
}
