/**
 * Detection's lookup keys: each event's key set (event_key_sets: its keys stamped with spans of
 * days, under a GIN index) and the candidates a batch's keys find, in one statement.
 */
import type { Sql } from "postgres";

/** Days since 1970-01-01 (UTC), first and last, both included. */
export type DaySpan = { first: number; last: number };

/** What a candidate must be near to be worth comparing with a listing: a span, a latitude band. */
export interface CandidateBounds {
  /** The listing's start, to rank candidates by. */
  at: Date;
  from: Date;
  to: Date;
  /** Null when the listing has no coordinates or is online; online candidates are never cut. */
  latitudes: [number, number] | null;
  /** The days whose stored keys can name such a candidate (a long listing's first MAX_DAYS). */
  days: DaySpan;
}

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

/** The columns of MatchRow but its id, of events as `e`. */
export const matchColumns = (sql: Sql) =>
  sql`e.title, e.source_url, e.starts_at, e.ends_at, e.city, e.country, e.latitude, e.longitude,
      e.is_virtual, e.is_hybrid`;

/** An event's lookup keys as detection last stored them, and its matched fields' fingerprint. */
export interface KeySet {
  fingerprint: number;
  keys: number[];
}

/** The key sets stored for each of `ids` (none for an event never detected). */
export async function keySetsOf(sql: Sql, ids: string[]): Promise<Map<string, KeySet>> {
  if (ids.length === 0) return new Map();
  const rows = await sql<{ event_id: string; fingerprint: string; keys: string[] }[]>`
    SELECT event_id, fingerprint, keys FROM event_key_sets WHERE event_id = ANY(${ids}::uuid[])`;
  return new Map(rows.map((r) => [
    r.event_id,
    { fingerprint: Number(r.fingerprint), keys: r.keys.map(Number) },
  ]));
}

// A set's `lat` column: the whole degree of its listing's latitude, or this when it has no
// coordinates or is online (outside every band).
const NO_DEGREE = 99;

/** An event's new key set, with its days and latitude. */
export interface KeySetChange extends KeySet {
  event_id: string;
  days: DaySpan;
  /** Its latitude, where latitude bands apply to it: null without coordinates or online. */
  latitude: number | null;
}

// Keys are stamped with spans of this many days: a lookup reads the listings holding a key in the
// spans its days touch (one or two), then keeps those whose days meet its own.
const SPAN_DAYS = 8;

/** `keys` stamped with each span of days from `first` to `last` (an array literal). */
function stamped(keys: number[], first: number, last: number): string {
  const out: number[] = [];
  for (let span = Math.floor(first / SPAN_DAYS); span <= Math.floor(last / SPAN_DAYS); span++) {
    // 40 bits of the key and 13 of the span: a safe integer. A collision finds a listing more,
    // which the days and the matcher then turn down.
    for (const key of keys) out.push((key % 2 ** 40) * 8192 + (span % 8192));
  }
  return `{${out.join(",")}}`;
}

/** Writes `sets` to event_key_sets, each replacing the one stored. */
export async function writeSets(sql: Sql, sets: KeySetChange[]): Promise<void> {
  if (sets.length === 0) return;
  const degrees = sets.map((s) => s.latitude === null ? NO_DEGREE : Math.floor(s.latitude));
  await sql`
    INSERT INTO event_key_sets (event_id, fingerprint, keys, day_keys, first_day, last_day, lat)
    SELECT event_id, fingerprint, keys::bigint[], day_keys::bigint[], first_day, last_day, lat
    FROM unnest(${sets.map((s) => s.event_id)}::uuid[],
                ${sets.map((s) => String(s.fingerprint))}::bigint[],
                -- Each set as an array literal: a ragged array of arrays is no parameter.
                ${sets.map((s) => `{${s.keys.join(",")}}`)}::text[],
                ${sets.map((s) => stamped(s.keys, s.days.first, s.days.last))}::text[],
                ${sets.map((s) => s.days.first)}::int[],
                ${sets.map((s) => s.days.last)}::int[],
                ${degrees}::int[])
      AS s(event_id, fingerprint, keys, day_keys, first_day, last_day, lat)
    ON CONFLICT (event_id) DO UPDATE
      SET fingerprint = EXCLUDED.fingerprint, keys = EXCLUDED.keys, day_keys = EXCLUDED.day_keys,
          first_day = EXCLUDED.first_day, last_day = EXCLUDED.last_day, lat = EXCLUDED.lat`;
}

// A listing finding more is a title of common words in a busy week: the matcher decides among
// the ones sharing the most keys, then the closest in time.
const CANDIDATES_PER_PROBE = 50;

/** A listing looking for candidates: its keys and the bounds a candidate must fall in. */
export interface Probe extends CandidateBounds {
  id: string;
  platform: string;
  keys: number[];
}

/**
 * Pairs (probe, candidate) that might be one event: a stored set sharing a key with the probe on
 * days within reach (one GIN lookup a probe), its event within the probe's bounds, another
 * contributor's or platform's. At most CANDIDATES_PER_PROBE a probe, most keys shared first.
 */
export async function findCandidates(
  sql: Sql,
  o: { contributorId: string; probes: Probe[] },
): Promise<{ probe: string; candidate: MatchRow }[]> {
  const { probes } = o;
  if (probes.length === 0) return [];
  const rows = await sql<(MatchRow & { probe: string })[]>`
    WITH probe AS MATERIALIZED (
      -- Materialised: each probe's keys are cast once, not again for every set it meets.
      SELECT id, platform, at, lo, hi, south, north, first_day, last_day,
        keys::bigint[] AS keys, day_keys::bigint[] AS day_keys
      FROM unnest(${probes.map((p) => p.id)}::uuid[],
        ${probes.map((p) => p.platform)}::text[],
        ${probes.map((p) => p.at.toISOString())}::timestamptz[],
        ${probes.map((p) => p.from.toISOString())}::timestamptz[],
        ${probes.map((p) => p.to.toISOString())}::timestamptz[],
        ${probes.map((p) => p.latitudes?.[0] ?? null)}::float8[],
        ${probes.map((p) => p.latitudes?.[1] ?? null)}::float8[],
        ${probes.map((p) => p.days.first)}::int[],
        ${probes.map((p) => p.days.last)}::int[],
        ${probes.map((p) => `{${p.keys.join(",")}}`)}::text[],
        ${probes.map((p) => stamped(p.keys, p.days.first, p.days.last))}::text[])
        AS p(id, platform, at, lo, hi, south, north, first_day, last_day, keys, day_keys)
    ), ranked AS (
      -- Keys shared are counted only for the sets whose events pass the bounds.
      SELECT p.id AS probe, ce.*, row_number() OVER (
          PARTITION BY p.id
          ORDER BY (SELECT count(*) FROM unnest(s.keys) k WHERE k = ANY(p.keys)) DESC,
            abs(extract(epoch FROM ce.starts_at - p.at)), ce.id
        ) AS rank
      FROM probe p
      CROSS JOIN LATERAL (
        SELECT s.event_id, s.keys FROM event_key_sets s
        WHERE s.day_keys && p.day_keys
          AND s.first_day <= p.last_day AND s.last_day >= p.first_day
          AND (p.south IS NULL OR s.lat = ${NO_DEGREE}
            OR s.lat BETWEEN floor(p.south) AND floor(p.north))
        OFFSET 0
      ) s
      -- LATERAL with OFFSET 0: one read by primary key per candidate. Joined plainly, the
      -- planner misjudged the rows and scanned the events table in parallel workers.
      CROSS JOIN LATERAL (
        SELECT e.id, ${matchColumns(sql)}, e.contributor_id, e.platform
        FROM events e WHERE e.id = s.event_id OFFSET 0
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
