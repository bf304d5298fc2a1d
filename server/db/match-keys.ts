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

/** Stores the lookup keys of events, first removing those of the events in `replacing`. */
export async function writeLookupKeys(
  sql: Sql,
  o: { replacing: string[]; rows: { event_id: string; keys: number[] }[] },
): Promise<void> {
  const { replacing, rows } = o;
  if (replacing.length > 0) {
    await sql`DELETE FROM event_lookup_keys WHERE event_id = ANY(${replacing}::uuid[])`;
  }
  const ids = rows.flatMap((r) => r.keys.map(() => r.event_id));
  const hashes = rows.flatMap((r) => r.keys.map(String));
  if (ids.length === 0) return;
  await sql`
    INSERT INTO event_lookup_keys (hash, event_id)
    SELECT * FROM unnest(${hashes}::bigint[], ${ids}::uuid[])
    ON CONFLICT DO NOTHING`;
}

// A listing finding more is a title of common words in a busy week: the matcher decides among
// the first ones.
const CANDIDATES_PER_PROBE = 50;

/**
 * Pairs (probe, candidate) of events that might be the same: sharing a lookup key
 * (server/duplicates/lookup-keys.ts), listed by another contributor or on another platform. One
 * join on the keys' primary key for all the probes.
 */
export async function findCandidates(
  sql: Sql,
  probes: { id: string; keys: number[] }[],
): Promise<{ probe: string; candidate: MatchRow }[]> {
  const ids = probes.flatMap((p) => p.keys.map(() => p.id));
  const hashes = probes.flatMap((p) => p.keys.map(String));
  if (ids.length === 0) return [];
  const rows = await sql<(MatchRow & { probe: string })[]>`
    SELECT probe, id, title, source_url, starts_at, ends_at, city, country, latitude, longitude,
           is_virtual, is_hybrid
    FROM (
      SELECT m.probe, ce.id, ce.title, ce.source_url, ce.starts_at, ce.ends_at, ce.city,
             ce.country, ce.latitude, ce.longitude, ce.is_virtual, ce.is_hybrid,
             row_number() OVER (PARTITION BY m.probe ORDER BY m.candidate) AS n
      FROM (
        -- LATERAL: one index lookup per key. A plain join let the planner hash the whole keys
        -- table (1.2 million rows at 100,000 events) for a batch's thousand keys.
        SELECT DISTINCT p.probe, k.event_id AS candidate
        FROM unnest(${hashes}::bigint[], ${ids}::uuid[]) AS p(hash, probe)
        CROSS JOIN LATERAL (
          SELECT l.event_id FROM event_lookup_keys l
          WHERE l.hash = p.hash AND l.event_id <> p.probe
        ) k
      ) m
      JOIN events pe ON pe.id = m.probe
      JOIN events ce ON ce.id = m.candidate
      WHERE ce.contributor_id <> pe.contributor_id OR ce.platform <> pe.platform
    ) ranked
    WHERE n <= ${CANDIDATES_PER_PROBE}`;
  return rows.map(({ probe, ...candidate }) => ({ probe, candidate }));
}
