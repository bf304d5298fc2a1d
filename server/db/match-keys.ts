/** Detection's lookups: the events it compares, their stored match keys, and candidates. */
import type { Sql } from "postgres";

/** What detection reads of an event: the matcher's fields and the canonical rule's. */
export interface MatchRow {
  id: string;
  title: string;
  source_url: string;
  starts_at: Date;
  ends_at: Date | null;
  city: string | null;
  country: string | null;
  latitude: number | null;
  longitude: number | null;
  is_virtual: boolean;
  is_hybrid: boolean | null;
}

/** Removes the lookup keys of `ids` (events whose matched fields changed). */
export async function removeLookupKeys(sql: Sql, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`DELETE FROM event_lookup_keys WHERE event_id = ANY(${ids}::uuid[])`;
}

/** The lookup keys stored for each of `ids` (none for an event never detected). */
export async function lookupKeysOf(sql: Sql, ids: string[]): Promise<Map<string, Set<number>>> {
  const keys = new Map<string, Set<number>>();
  if (ids.length === 0) return keys;
  const rows = await sql<{ event_id: string; hash: string }[]>`
    SELECT event_id, hash FROM event_lookup_keys WHERE event_id = ANY(${ids}::uuid[])`;
  for (const r of rows) {
    if (!keys.has(r.event_id)) keys.set(r.event_id, new Set());
    keys.get(r.event_id)!.add(Number(r.hash));
  }
  return keys;
}

// A key shared by more listings in one week tells little (generic words): reading them all would
// cost more than the rest of detection.
const KEY_FANOUT = 64;
// A listing finding more is a title of common words in a busy week: the matcher decides among
// the ones sharing the most keys, then the closest in time.
const CANDIDATES_PER_PROBE = 50;

/** A listing looking for candidates: its keys and the bounds a candidate must fall in. */
export interface Probe {
  id: string;
  platform: string;
  keys: number[];
  /** Its start, to rank candidates by; the span a candidate must touch; a latitude band. */
  at: Date;
  from: Date;
  to: Date;
  latitudes: [number, number] | null;
}

/**
 * Stores the lookup keys of `rows` and returns pairs (probe, candidate) of events that might be
 * the same: sharing a lookup key (server/duplicates/lookup-keys.ts), within the probe's bounds,
 * listed by another contributor or on another platform. One statement for a whole batch (all of
 * `contributorId`'s): the candidates are read from the keys as they were before it, so the
 * batch's own listings are not among them.
 */
export async function storeKeysAndFindCandidates(
  sql: Sql,
  o: { contributorId: string; rows: { event_id: string; keys: number[] }[]; probes: Probe[] },
): Promise<{ probe: string; candidate: MatchRow }[]> {
  const { probes } = o;
  const ordinals = probes.flatMap((p, i) => p.keys.map(() => i + 1));
  const hashes = probes.flatMap((p) => p.keys.map(String));
  const rows = await sql<(MatchRow & { probe: string })[]>`
    WITH stored AS (
      INSERT INTO event_lookup_keys (hash, event_id)
      SELECT * FROM unnest(${o.rows.flatMap((r) => r.keys.map(String))}::bigint[],
                           ${o.rows.flatMap((r) => r.keys.map(() => r.event_id))}::uuid[])
      ON CONFLICT DO NOTHING
    ), probe AS (
      SELECT * FROM unnest(${probes.map((p) => p.id)}::uuid[],
        ${probes.map((p) => p.platform)}::text[],
        ${probes.map((p) => p.at.toISOString())}::timestamptz[],
        ${probes.map((p) => p.from.toISOString())}::timestamptz[],
        ${probes.map((p) => p.to.toISOString())}::timestamptz[],
        ${probes.map((p) => p.latitudes?.[0] ?? null)}::float8[],
        ${probes.map((p) => p.latitudes?.[1] ?? null)}::float8[])
        WITH ORDINALITY AS p(id, platform, at, lo, hi, south, north, n)
    ), hit AS (
      -- LATERAL: one index lookup per key. A plain join let the planner hash the whole keys
      -- table (1.2 million rows at 100,000 events) for a batch's thousand keys.
      SELECT k.n, l.event_id, count(*) AS shared
      FROM unnest(${hashes}::bigint[], ${ordinals}::int[]) AS k(hash, n)
      CROSS JOIN LATERAL (
        SELECT l.event_id FROM event_lookup_keys l WHERE l.hash = k.hash LIMIT ${KEY_FANOUT}
      ) l
      GROUP BY k.n, l.event_id
    ), ranked AS (
      SELECT p.id AS probe, ce.*, row_number() OVER (
        PARTITION BY p.n
        ORDER BY h.shared DESC, abs(extract(epoch FROM ce.starts_at - p.at)), ce.id
      ) AS rank
      FROM hit h
      JOIN probe p ON p.n = h.n
      -- LATERAL with OFFSET 0: one read by primary key per candidate. Joined plainly, the
      -- planner misjudged the rows and scanned the events table in parallel workers.
      CROSS JOIN LATERAL (
        SELECT e.id, e.title, e.source_url, e.starts_at, e.ends_at, e.city, e.country,
               e.latitude, e.longitude, e.is_virtual, e.is_hybrid, e.contributor_id, e.platform
        FROM events e WHERE e.id = h.event_id OFFSET 0
      ) ce
      WHERE ce.id <> p.id
        AND (ce.contributor_id <> ${o.contributorId}::uuid OR ce.platform <> p.platform)
        AND ce.starts_at <= p.hi AND greatest(ce.starts_at, ce.ends_at) >= p.lo
        AND (p.south IS NULL OR ce.latitude IS NULL OR ce.is_virtual
          OR ce.latitude BETWEEN p.south AND p.north)
    )
    SELECT probe, id, title, source_url, starts_at, ends_at, city, country, latitude, longitude,
           is_virtual, is_hybrid
    FROM ranked WHERE rank <= ${CANDIDATES_PER_PROBE}`;
  return rows.map(({ probe, ...candidate }) => ({ probe, candidate }));
}
