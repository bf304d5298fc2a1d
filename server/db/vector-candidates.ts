/**
 * Detection's second way to candidates: listings whose vectors are close. Only between events in
 * AI search (ai-search-rule.ts: a trusted key's, with a current vector), so an untrusted key's
 * listing never brings its content into detection this way either. Needs pgvector: the caller
 * asks only where the vector store is prepared.
 */
import type { Sql } from "postgres";
import { keyFeedsAiSearch, vectorIsCurrent } from "./ai-search-rule.ts";
import type { MatchRow } from "./match-keys.ts";
import type { RedetectionRow } from "./duplicate-rules.ts";

/** A listing looking for close vectors, and the bounds a candidate must fall in. */
export interface VectorProbe {
  id: string;
  contributorId: string;
  platform: string;
  /** The earliest and latest start of a candidate. */
  from: Date;
  to: Date;
  latitudes: [number, number] | null;
}

/**
 * Pairs (probe, candidate, cosine similarity) of listings in AI search whose vectors are at least
 * `minSimilarity` alike, starting within the probe's bounds, listed by another contributor or on another
 * platform: at most `perProbe` a probe, the closest first. A probe not in AI search finds none.
 */
export async function vectorCandidates(
  sql: Sql,
  o: { probes: VectorProbe[]; minSimilarity: number; perProbe: number },
): Promise<{ probe: string; candidate: MatchRow; similarity: number }[]> {
  const { probes } = o;
  if (probes.length === 0) return [];
  const rows = await sql<(MatchRow & { probe: string; similarity: number })[]>`
    WITH probe AS (
      SELECT p.*, v.embedding
      FROM unnest(${probes.map((p) => p.id)}::uuid[],
        ${probes.map((p) => p.contributorId)}::uuid[],
        ${probes.map((p) => p.platform)}::text[],
        ${probes.map((p) => p.from.toISOString())}::timestamptz[],
        ${probes.map((p) => p.to.toISOString())}::timestamptz[],
        ${probes.map((p) => p.latitudes?.[0] ?? null)}::float8[],
        ${probes.map((p) => p.latitudes?.[1] ?? null)}::float8[])
        AS p(id, contributor_id, platform, lo, hi, south, north)
      JOIN events e ON e.id = p.id
      JOIN api_keys k ON k.id = e.last_key_id
      JOIN event_embeddings v ON v.event_id = e.id
      WHERE ${keyFeedsAiSearch(sql)} AND ${vectorIsCurrent(sql)}
    )
    SELECT p.id AS probe, c.*
    FROM probe p
    CROSS JOIN LATERAL (
      -- Exact distances over the few listings starting in the window, read through the start
      -- index: an HNSW scan ordered by distance would return the nearest of all time (a weekly
      -- series' other evenings), then filter them.
      SELECT w.id, w.title, w.source_url, w.starts_at, w.ends_at, w.city, w.country, w.latitude,
             w.longitude, w.is_virtual, w.is_hybrid, (1 - w.distance)::float8 AS similarity
      FROM (
        SELECT e.*, v.embedding <=> p.embedding AS distance
        FROM events e
        JOIN api_keys k ON k.id = e.last_key_id
        JOIN event_embeddings v ON v.event_id = e.id
        WHERE e.starts_at BETWEEN p.lo AND p.hi
          AND e.id <> p.id
          AND (e.contributor_id <> p.contributor_id OR e.platform <> p.platform)
          AND (p.south IS NULL OR e.latitude IS NULL OR e.is_virtual
            OR e.latitude BETWEEN p.south AND p.north)
          AND ${keyFeedsAiSearch(sql)} AND ${vectorIsCurrent(sql)}
        OFFSET 0
      ) w
      WHERE w.distance <= ${1 - o.minSimilarity}
      ORDER BY w.distance, w.id
      LIMIT ${o.perProbe}
    ) c`;
  return rows.map(({ probe, similarity, ...candidate }) => ({ probe, candidate, similarity }));
}

/** Which of `ids` are in AI search now, with what detection reads of them. */
export async function eventsInAiSearch(sql: Sql, ids: string[]): Promise<RedetectionRow[]> {
  if (ids.length === 0) return [];
  return await sql<RedetectionRow[]>`
    SELECT e.id, e.contributor_id, e.platform, e.title, e.source_url, e.starts_at, e.ends_at,
           e.city, e.country, e.latitude, e.longitude, e.is_virtual, e.is_hybrid
    FROM events e
    JOIN api_keys k ON k.id = e.last_key_id
    JOIN event_embeddings v ON v.event_id = e.id
    WHERE e.id = ANY(${ids}::uuid[]) AND ${keyFeedsAiSearch(sql)} AND ${vectorIsCurrent(sql)}
    ORDER BY e.id`;
}
