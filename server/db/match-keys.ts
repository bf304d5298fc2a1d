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

/** An event's keys as the candidate lookup finds them. */
export interface MatchKeyRow {
  event_id: string;
  starts_at: string;
  ends_at: string;
  title_words: string[];
  url_key: string | null;
  place_key: string | null;
}

/** Stores (or replaces) the match keys of events. */
export async function writeMatchKeys(sql: Sql, rows: MatchKeyRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO event_match_keys (event_id, starts_at, ends_at, title_words, url_key, place_key)
    SELECT event_id, starts_at, ends_at, title_words, url_key, place_key
    FROM jsonb_to_recordset(${sql.json(rows as never)}::jsonb) AS x(
      event_id uuid, starts_at timestamptz, ends_at timestamptz, title_words text[],
      url_key text, place_key text)
    ON CONFLICT (event_id) DO UPDATE SET
      starts_at = EXCLUDED.starts_at, ends_at = EXCLUDED.ends_at,
      title_words = EXCLUDED.title_words, url_key = EXCLUDED.url_key,
      place_key = EXCLUDED.place_key`;
}

/** A lookup: an event's keys and the time window its duplicates must start in. */
export interface CandidateProbe {
  id: string;
  /** Earliest start and latest start of a candidate. */
  from: string;
  to: string;
  /** A candidate must end at or after this. */
  ends_after: string;
  words: string[];
  url: string | null;
  place: string | null;
}

// Enough for a week of one city's events; a probe finding more is too vague to help anyway.
const CANDIDATES_PER_PROBE = 100;

/**
 * Pairs (probe, candidate) of events that might be the same: starting within the probe's
 * window, sharing a title word, the address or the place, and listed by another contributor or
 * on another platform. Each of the three is an index lookup.
 */
export async function findCandidates(
  sql: Sql,
  probes: CandidateProbe[],
): Promise<{ probe: string; candidate: string }[]> {
  if (probes.length === 0) return [];
  return await sql<{ probe: string; candidate: string }[]>`
    SELECT p.id AS probe, c.event_id AS candidate
    FROM jsonb_to_recordset(${sql.json(probes as never)}::jsonb) AS p(
      id uuid, "from" timestamptz, "to" timestamptz, ends_after timestamptz, words text[],
      url text, place text)
    JOIN events pe ON pe.id = p.id
    CROSS JOIN LATERAL (
      SELECT k.event_id FROM event_match_keys k
      WHERE k.starts_at BETWEEN p."from" AND p."to" AND k.ends_at >= p.ends_after
        AND k.event_id <> p.id
        AND (k.title_words && p.words OR k.url_key = p.url OR k.place_key = p.place)
      LIMIT ${CANDIDATES_PER_PROBE}
    ) c
    JOIN events ce ON ce.id = c.event_id
    WHERE ce.contributor_id <> pe.contributor_id OR ce.platform <> pe.platform`;
}
