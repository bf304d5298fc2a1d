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

/** The events with these ids, as detection reads them. */
export async function matchRowsOf(sql: Sql, ids: string[]): Promise<MatchRow[]> {
  if (ids.length === 0) return [];
  return await sql<MatchRow[]>`
    SELECT id, title, source_url, starts_at, ends_at, city, country, latitude, longitude,
           is_virtual, is_hybrid
    FROM events WHERE id = ANY(${ids}::uuid[])`;
}

/** Stores (or replaces) the lookup keys of events. */
export async function writeMatchKeys(
  sql: Sql,
  rows: { event_id: string; lookup: string[] }[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO event_match_keys (event_id, lookup)
    SELECT event_id, lookup
    FROM jsonb_to_recordset(${sql.json(rows as never)}::jsonb) AS x(event_id uuid, lookup text[])
    ON CONFLICT (event_id) DO UPDATE SET lookup = EXCLUDED.lookup`;
}

// A probe finding more is a title of common words on a busy day: the best matches are among
// any of them, and the matcher decides.
const CANDIDATES_PER_PROBE = 50;

/**
 * Pairs (probe, candidate) of events that might be the same: sharing a lookup key
 * (server/duplicates/lookup-keys.ts), listed by another contributor or on another platform.
 */
export async function findCandidates(
  sql: Sql,
  probes: { id: string; keys: string[] }[],
): Promise<{ probe: string; candidate: string }[]> {
  if (probes.length === 0) return [];
  return await sql<{ probe: string; candidate: string }[]>`
    SELECT p.id AS probe, c.event_id AS candidate
    FROM jsonb_to_recordset(${sql.json(probes as never)}::jsonb) AS p(id uuid, keys text[])
    JOIN events pe ON pe.id = p.id
    CROSS JOIN LATERAL (
      SELECT k.event_id FROM event_match_keys k
      WHERE k.lookup && p.keys AND k.event_id <> p.id
      LIMIT ${CANDIDATES_PER_PROBE}
    ) c
    JOIN events ce ON ce.id = c.event_id
    WHERE ce.contributor_id <> pe.contributor_id OR ce.platform <> pe.platform`;
}
