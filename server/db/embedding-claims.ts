/**
 * Claiming the events that need a vector. The set is derived from the data on every claim: events
 * that belong in AI search but have no current vector (waitsForVector in ai-search-rule.ts). A
 * claim is a row with an expiry, written in a short transaction; the provider is called outside
 * any transaction, so slow embedding never holds a lock or the single PGlite connection. A worker
 * that dies leaves claims that expire and are taken again.
 */
import type { Fragment, Sql } from "postgres";
import { keyFeedsAiSearch, vectorIsCurrent, waitsForVector } from "./ai-search-rule.ts";

/** An event a worker now holds, with what it needs to embed it (an EmbeddableEvent). */
export interface ClaimedEvent {
  id: string;
  title: string;
  topics: string[];
  tags: string[];
  categories: string[];
  event_type: string | null;
  city: string | null;
  country: string | null;
  description: string | null;
  content_hash: string;
  /** The model and text hash of the event's existing vector, if it has one. */
  vector_model: string | null;
  vector_text_hash: string | null;
}

export interface ClaimOptions {
  worker: string;
  model: string;
  limit: number;
  /** How long the claim holds before another worker may take the events. */
  claimMs: number;
}

/** Claims up to `limit` events that need a vector; concurrent workers get disjoint sets. */
export async function claimEventsToEmbed(sql: Sql, o: ClaimOptions): Promise<ClaimedEvent[]> {
  return await claim(sql, o, (tx) =>
    tx`
    SELECT e.id FROM events e
    JOIN api_keys k ON k.id = e.last_key_id
    LEFT JOIN event_embeddings v ON v.event_id = e.id
    LEFT JOIN embedding_claims c ON c.event_id = e.id
    WHERE ${waitsForVector(tx, o.model)}
      AND (c.event_id IS NULL OR c.claimed_until < now())
    LIMIT ${o.limit}
    FOR UPDATE OF e SKIP LOCKED`);
}

/**
 * Claims up to `limit` events of AI search whose current vector was made from a text older than
 * `textVersion`, the longest-outdated first: they keep serving search until re-embedded. Newer
 * versions (a newer server on the same database) are left alone.
 */
export async function claimOutdatedVectors(
  sql: Sql,
  o: ClaimOptions & { textVersion: number },
): Promise<ClaimedEvent[]> {
  return await claim(sql, o, (tx) =>
    tx`
    SELECT e.id FROM event_embeddings v
    JOIN events e ON e.id = v.event_id
    JOIN api_keys k ON k.id = e.last_key_id
    LEFT JOIN embedding_claims c ON c.event_id = e.id
    WHERE v.text_version < ${o.textVersion} AND ${vectorIsCurrent(tx, o.model)}
      AND ${keyFeedsAiSearch(tx)}
      AND (c.event_id IS NULL OR c.claimed_until < now())
    ORDER BY v.text_version, v.embedded_at
    LIMIT ${o.limit}
    FOR UPDATE OF e SKIP LOCKED`);
}

/** Claims the events `candidates` selects (ids of `e`, locked) and reads what embedding needs. */
async function claim(
  sql: Sql,
  o: ClaimOptions,
  candidates: (tx: Sql) => Fragment,
): Promise<ClaimedEvent[]> {
  return await sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    return await tx<ClaimedEvent[]>`
      WITH candidates AS (${candidates(tx)}), claimed AS (
        INSERT INTO embedding_claims (event_id, worker, claimed_until)
        SELECT id, ${o.worker}, now() + ${o.claimMs} * interval '1 millisecond' FROM candidates
        -- Another worker may have claimed between our snapshot and our lock: keep its claim.
        ON CONFLICT (event_id) DO UPDATE SET
          worker = EXCLUDED.worker, claimed_until = EXCLUDED.claimed_until
          WHERE embedding_claims.claimed_until < now()
        RETURNING event_id
      )
      SELECT e.id, e.content_hash, e.title, e.topics, e.tags, e.categories, e.event_type, e.city,
             e.country, e.description, v.model AS vector_model, v.text_hash AS vector_text_hash
      FROM claimed JOIN events e ON e.id = claimed.event_id
      LEFT JOIN event_embeddings v ON v.event_id = e.id`;
  }) as ClaimedEvent[];
}

/**
 * Gives claimed events back, to be taken again after `delayMs`, noting the error. A failure that
 * retrying will not fix (`countAttempt`) also backs off per event: 30 s, doubling to an hour.
 */
export async function releaseClaims(
  sql: Sql,
  worker: string,
  eventIds: string[],
  failure: { delayMs: number; error: string; countAttempt: boolean },
): Promise<void> {
  await sql`
    UPDATE embedding_claims SET
      claimed_until = now() + greatest(
        ${failure.delayMs} * interval '1 millisecond',
        CASE WHEN ${failure.countAttempt}
          THEN least(interval '1 hour', interval '30 seconds' * power(2, attempts))
          ELSE interval '0' END),
      attempts = attempts + ${failure.countAttempt ? 1 : 0},
      last_error = ${failure.error.slice(0, 1000)}
    WHERE event_id = ANY(${eventIds}::uuid[]) AND worker = ${worker}`;
}
