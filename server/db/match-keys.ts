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

/** An event's lookup keys as detection last stored them, and its matched fields' fingerprint. */
export interface KeySet {
  fingerprint: number;
  keys: number[];
}

/** The key sets stored for each of `ids` (none for an event never detected). */
export async function keySetsOf(sql: Sql, ids: string[]): Promise<Map<string, KeySet>> {
  const sets = new Map<string, KeySet>();
  if (ids.length === 0) return sets;
  const rows = await sql<{ event_id: string; fingerprint: string; keys: string[] }[]>`
    SELECT event_id, fingerprint, keys FROM event_key_sets WHERE event_id = ANY(${ids}::uuid[])`;
  for (const r of rows) {
    sets.set(r.event_id, { fingerprint: Number(r.fingerprint), keys: r.keys.map(Number) });
  }
  return sets;
}

/** An event's new key set. */
export interface KeySetChange extends KeySet {
  event_id: string;
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
 * Stores the key sets `sets` (writing only the key rows each gains and deleting those it loses)
 * and returns pairs (probe, candidate) of events that might be the same: sharing a lookup key
 * (server/duplicates/lookup-keys.ts), within the probe's bounds, listed by another contributor
 * or on another platform. One statement for a whole batch (all of
 * `contributorId`'s): the candidates are read from the keys as they were before it, so the
 * batch's new listings are not among them.
 */
export async function storeKeysAndFindCandidates(
  sql: Sql,
  o: { contributorId: string; sets: KeySetChange[]; probes: Probe[] },
): Promise<{ probe: string; candidate: MatchRow }[]> {
  const { probes, sets } = o;
  const ordinals = probes.flatMap((p, i) => p.keys.map(() => i + 1));
  const hashes = probes.flatMap((p) => p.keys.map(String));
  // Each key once, in order: listings of one event in a batch share keys.
  const keys = [...new Set(probes.flatMap((p) => p.keys))].sort((a, b) => a - b).map(String);
  const ids = sets.map((s) => s.event_id);
  const rows = await sql<(MatchRow & { probe: string })[]>`
    WITH fresh AS (
      SELECT * FROM unnest(${sets.flatMap((s) => s.keys.map(String))}::bigint[],
                           ${sets.flatMap((s) => s.keys.map(() => s.event_id))}::uuid[])
        AS k(hash, event_id)
    ), old AS (
      -- The keys stored now, read under the duplicates lock: a set read before it may be stale.
      SELECT unnest(s.keys) AS hash, s.event_id FROM event_key_sets s
      WHERE s.event_id = ANY(${ids}::uuid[])
    ), gone AS (
      -- Only the keys a changed listing lost, each by the primary key; those it keeps stay.
      DELETE FROM event_lookup_keys l
      USING (SELECT hash, event_id FROM old EXCEPT SELECT hash, event_id FROM fresh) x
      WHERE l.hash = x.hash AND l.event_id = x.event_id
    ), stored AS (
      INSERT INTO event_lookup_keys (hash, event_id)
      SELECT hash, event_id FROM fresh EXCEPT SELECT hash, event_id FROM old
      ON CONFLICT DO NOTHING
    ), sets AS (
      -- Each set as an array literal: a ragged array of arrays is no parameter.
      INSERT INTO event_key_sets (event_id, fingerprint, keys)
      SELECT event_id, fingerprint, keys::bigint[]
      FROM unnest(${ids}::uuid[],
                  ${sets.map((s) => String(s.fingerprint))}::bigint[],
                  ${
    sets.map((s) => `{${s.keys.join(",")}}`)
  }::text[]) AS s(event_id, fingerprint, keys)
      ON CONFLICT (event_id) DO UPDATE
        SET fingerprint = EXCLUDED.fingerprint, keys = EXCLUDED.keys
    ), probe AS (
      SELECT * FROM unnest(${probes.map((p) => p.id)}::uuid[],
        ${probes.map((p) => p.platform)}::text[],
        ${probes.map((p) => p.at.toISOString())}::timestamptz[],
        ${probes.map((p) => p.from.toISOString())}::timestamptz[],
        ${probes.map((p) => p.to.toISOString())}::timestamptz[],
        ${probes.map((p) => p.latitudes?.[0] ?? null)}::float8[],
        ${probes.map((p) => p.latitudes?.[1] ?? null)}::float8[])
        WITH ORDINALITY AS p(id, platform, at, lo, hi, south, north, n)
    ), held AS (
      -- The listings holding each key, at most KEY_FANOUT a key, read in one of two ways as the
      -- server does best (the other branch's filter is false, so it is never run). PostgreSQL 17
      -- and later read a sorted array of keys in one walk of the index: on PGlite (18) one scan
      -- for a batch's keys took a third of the time of a lookup per key. PostgreSQL 15 walks the
      -- index from the root for each key of the array, and the lookup per key was faster there.
      SELECT hash, event_id FROM (
        SELECT l.hash, l.event_id,
          row_number() OVER (PARTITION BY l.hash ORDER BY l.event_id) AS nth
        FROM event_lookup_keys l
        WHERE l.hash = ANY(${keys}::bigint[])
          AND current_setting('server_version_num')::int >= 170000
      ) l WHERE nth <= ${KEY_FANOUT}
      UNION ALL
      -- LATERAL: one index lookup per key. A plain join let the planner hash the whole keys
      -- table (1.2 million rows at 100,000 events) for a batch's thousand keys.
      SELECT k.hash, l.event_id
      FROM unnest(${keys}::bigint[]) AS k(hash)
      CROSS JOIN LATERAL (
        SELECT l.event_id FROM event_lookup_keys l WHERE l.hash = k.hash LIMIT ${KEY_FANOUT}
      ) l
      WHERE current_setting('server_version_num')::int < 170000
    ), hit AS (
      SELECT k.n, h.event_id, count(*) AS shared
      FROM unnest(${hashes}::bigint[], ${ordinals}::int[]) AS k(hash, n)
      JOIN held h ON h.hash = k.hash
      GROUP BY k.n, h.event_id
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
