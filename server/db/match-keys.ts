/** Detection's reads and writes: the events it compares, their stored key sets, and candidates. */
import type { Sql } from "postgres";
import { degreeOf } from "./key-rows.ts";

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
  const sets = new Map<string, KeySet>();
  if (ids.length === 0) return sets;
  const rows = await sql<{ event_id: string; fingerprint: string; keys: string[] }[]>`
    SELECT event_id, fingerprint, keys FROM event_key_sets WHERE event_id = ANY(${ids}::uuid[])`;
  for (const r of rows) {
    sets.set(r.event_id, { fingerprint: Number(r.fingerprint), keys: r.keys.map(Number) });
  }
  return sets;
}

/** An event's new key set, and the days its key rows cover. */
export interface KeySetChange extends KeySet {
  event_id: string;
  /** Days since 1970-01-01 (UTC), both included. */
  firstDay: number;
  lastDay: number;
  /** Its latitude, where latitude bands apply to it: null without coordinates or online. */
  latitude: number | null;
}

// A key shared by more listings near one probe's days tells little (generic words): reading them
// all would cost more than the rest of detection.
export const KEY_FANOUT = 64;
// A listing finding more is a title of common words in a busy week: the matcher decides among
// the ones sharing the most keys, then the closest in time.
export const CANDIDATES_PER_PROBE = 50;

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
  /** The days whose key rows can name a candidate (days since 1970-01-01, UTC). */
  days: { first: number; last: number };
}

/**
 * The statement's write of `sets` to event_key_sets: plain inserts when every set is new (its event
 * inserted in this transaction), else each replacing the one stored. `numbered`: each write takes
 * the next number of event_key_set_writes, for the indexes of other servers sharing the database
 * to learn it (KeyIndexClient.catchUp); on the embedded database none does, and none is taken.
 */
export function writeSets(
  sql: Sql,
  sets: KeySetChange[],
  o: { allNew: boolean; numbered: boolean },
) {
  const written = o.numbered ? sql`nextval('event_key_set_writes')` : sql`NULL::bigint`;
  return sql`
    INSERT INTO event_key_sets (event_id, fingerprint, keys, first_day, last_day, lat, written)
    SELECT event_id, fingerprint, keys::bigint[], first_day, last_day, lat, ${written}
    FROM unnest(${sets.map((s) => s.event_id)}::uuid[],
                ${sets.map((s) => String(s.fingerprint))}::bigint[],
                -- Each set as an array literal: a ragged array of arrays is no parameter.
                ${sets.map((s) => `{${s.keys.join(",")}}`)}::text[],
                ${sets.map((s) => s.firstDay)}::int[],
                ${sets.map((s) => s.lastDay)}::int[],
                ${sets.map((s) => degreeOf(s.latitude))}::int[])
      AS s(event_id, fingerprint, keys, first_day, last_day, lat)
    ${
    o.allNew ? sql`` : sql`ON CONFLICT (event_id) DO UPDATE
      SET fingerprint = EXCLUDED.fingerprint, keys = EXCLUDED.keys,
          first_day = EXCLUDED.first_day, last_day = EXCLUDED.last_day, lat = EXCLUDED.lat,
          written = EXCLUDED.written`
  }`;
}

/**
 * The probes as a table, with what readCandidates reads of them: (id, platform, lo, hi, south,
 * north, keys, n), `n` each one's ordinal.
 */
export function probeTable(sql: Sql, probes: Probe[]) {
  return sql`unnest(${probes.map((p) => p.id)}::uuid[],
        ${probes.map((p) => p.platform)}::text[],
        ${probes.map((p) => p.from.toISOString())}::timestamptz[],
        ${probes.map((p) => p.to.toISOString())}::timestamptz[],
        ${probes.map((p) => p.latitudes?.[0] ?? null)}::float8[],
        ${probes.map((p) => p.latitudes?.[1] ?? null)}::float8[],
        ${probes.map((p) => `{${p.keys.join(",")}}`)}::text[])
        WITH ORDINALITY
        AS p(id, platform, lo, hi, south, north, keys, n)`;
}

/**
 * The candidates of the probes (`probe`) among the listings their keys found (`hit`: the probe's
 * ordinal, a listing, how many keys they share), read from the events: those within the probe's
 * bounds, listed by another contributor or on another platform; `also`, a further condition on
 * them (`h`, `p`, `ce`). (withinBounds in indexed-candidates.ts checks the listings held in memory
 * the same way.)
 */
export function readCandidates(sql: Sql, contributorId: string, also = sql`true`) {
  return sql`
      SELECT p.id AS probe, h.shared, ce.*
      FROM hit h
      JOIN probe p ON p.n = h.n
      -- LATERAL with OFFSET 0: one read by primary key per candidate. Joined plainly, the
      -- planner misjudged the rows and scanned the events table in parallel workers.
      CROSS JOIN LATERAL (
        SELECT e.id, ${matchColumns(sql)}, e.contributor_id, e.platform
        FROM events e WHERE e.id = h.event_id OFFSET 0
      ) ce
      WHERE ce.id <> p.id
        AND (ce.contributor_id <> ${contributorId}::uuid OR ce.platform <> p.platform)
        AND ce.starts_at <= p.hi AND greatest(ce.starts_at, ce.ends_at) >= p.lo
        AND (p.south IS NULL OR ce.latitude IS NULL OR ce.is_virtual
          OR ce.latitude BETWEEN p.south AND p.north)
        AND ${also}`;
}

/** A candidate as readCandidates returns it: a MatchRow and the probe that found it. */
export type CandidateRow = MatchRow & { probe: string };
