/** Detection's lookups: the events it compares, their stored match keys, and candidates. */
import type { Sql } from "postgres";
import { degreeOf, MAX_STRETCHES, NO_DEGREE, STRETCH_DAYS, stretchesOf } from "./key-rows.ts";

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
 * The key rows of `sets`: each key over each stretch of its set's days. (The delete trigger on
 * events and storeChangedSets find a set's rows again the same way, row by row.)
 */
function keyRows(sets: KeySetChange[]) {
  const rows = {
    hash: [] as string[],
    day: [] as number[],
    last: [] as number[],
    id: [] as string[],
    lat: [] as number[],
  };
  for (const s of sets) {
    const lat = degreeOf(s.latitude);
    for (const [day, last] of stretchesOf(s.firstDay, s.lastDay)) {
      for (const key of s.keys) {
        rows.hash.push(String(key));
        rows.day.push(day);
        rows.last.push(last);
        rows.id.push(s.event_id);
        rows.lat.push(lat);
      }
    }
  }
  return rows;
}

/**
 * The statement's write of `sets` to event_key_sets: plain inserts when every set is new (its event
 * inserted in this transaction), else each replacing the one stored.
 */
export function writeSets(sql: Sql, sets: KeySetChange[], o: { allNew: boolean }) {
  return sql`
    INSERT INTO event_key_sets (event_id, fingerprint, keys, first_day, last_day, lat)
    SELECT event_id, fingerprint, keys::bigint[], first_day, last_day, lat
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
          first_day = EXCLUDED.first_day, last_day = EXCLUDED.last_day, lat = EXCLUDED.lat`
  }`;
}

/** The sets' key rows as a table: (hash, day, last, event_id, lat). */
function keyRowsTable(sql: Sql, sets: KeySetChange[]) {
  const rows = keyRows(sets);
  return sql`unnest(${rows.hash}::bigint[], ${rows.day}::int[], ${rows.last}::int[],
                    ${rows.id}::uuid[], ${rows.lat}::int[]) AS f(hash, day, last, event_id, lat)`;
}

/**
 * The statement's writes when every set is new (its event inserted in this transaction, so no key
 * row or set of it exists yet): plain inserts, with nothing to compare.
 */
function storeNewSets(sql: Sql, sets: KeySetChange[]) {
  return sql`stored AS (
      INSERT INTO event_lookup_keys (hash, day, last, event_id, lat)
      SELECT * FROM ${keyRowsTable(sql, sets)}
    ), sets AS (${writeSets(sql, sets, { allNew: true })})`;
}

/**
 * The statement's writes when a set may replace a stored one: only the key rows each set gains
 * are written, and those it loses deleted.
 */
function storeChangedSets(sql: Sql, sets: KeySetChange[]) {
  const ids = sets.map((s) => s.event_id);
  return sql`fresh AS (
      SELECT * FROM ${keyRowsTable(sql, sets)}
    ), held AS (
      -- The rows a changed listing holds now: each key over each stretch of its set's days, as
      -- keyRows wrote them (the set read under the duplicates lock: one read before it may be
      -- stale). LATERAL with the whole row but its latitude, and OFFSET 0 so that the planner
      -- keeps it so: one descent of the index to each row. Flattened, the planner read every row
      -- of each key, on all days, and a batch of moved listings took two seconds at 1,000,000
      -- events.
      SELECT r.ctid AS address, r.hash, r.day, r.last, r.event_id, r.lat
      FROM event_key_sets s
      CROSS JOIN LATERAL unnest(s.keys) AS k(hash)
      -- LIMIT: the planner takes a series for a thousand rows; more than the few stretches a set
      -- holds made the statement's estimated cost start a JIT compilation, a second each.
      CROSS JOIN LATERAL (
        SELECT day FROM generate_series(s.first_day, s.last_day, ${STRETCH_DAYS}) AS g(day)
        LIMIT ${MAX_STRETCHES}
      ) d
      CROSS JOIN LATERAL (
        SELECT l.ctid, l.hash, l.day, l.last, l.event_id, l.lat FROM event_lookup_keys l
        WHERE l.hash = k.hash AND l.day = d.day
          AND l.last = least(d.day + ${STRETCH_DAYS - 1}, s.last_day) AND l.event_id = s.event_id
        OFFSET 0
      ) r
      WHERE s.event_id = ANY(${ids}::uuid[])
    ), diff AS (
      -- Each row the batch's listings hold now or should hold, and which: grouped (a hash
      -- aggregate), not joined, so that no plan compares every row with every other.
      SELECT hash, day, last, event_id, lat, bool_or(was) AS was, bool_or(NOT was) AS wanted,
        (array_agg(address) FILTER (WHERE was))[1] AS address
      FROM (
        SELECT hash, day, last, event_id, lat, true AS was, address FROM held
        UNION ALL
        SELECT hash, day, last, event_id, lat, false, NULL::tid FROM fresh
      ) x
      GROUP BY hash, day, last, event_id, lat
    ), gone AS (
      -- The rows a listing no longer has (a key lost, other days, another latitude), by row
      -- address.
      DELETE FROM event_lookup_keys
      WHERE ctid = ANY(ARRAY(SELECT address FROM diff WHERE was AND NOT wanted))
    ), stored AS (
      -- The rows it did not have. No ON CONFLICT: the whole row is the primary key, so a row
      -- deleted above and one inserted here are never the same key, and a speculative insertion
      -- costs an index probe and a WAL record more a row.
      INSERT INTO event_lookup_keys (hash, day, last, event_id, lat)
      SELECT hash, day, last, event_id, lat FROM diff WHERE wanted AND NOT was
    ), sets AS (${writeSets(sql, sets, { allNew: false })})`;
}

/**
 * The probes as a table: (id, platform, at, lo, hi, south, north, first_day, last_day, keys, n),
 * `n` each one's ordinal.
 */
export function probeTable(sql: Sql, probes: Probe[]) {
  return sql`unnest(${probes.map((p) => p.id)}::uuid[],
        ${probes.map((p) => p.platform)}::text[],
        ${probes.map((p) => p.at.toISOString())}::timestamptz[],
        ${probes.map((p) => p.from.toISOString())}::timestamptz[],
        ${probes.map((p) => p.to.toISOString())}::timestamptz[],
        ${probes.map((p) => p.latitudes?.[0] ?? null)}::float8[],
        ${probes.map((p) => p.latitudes?.[1] ?? null)}::float8[],
        ${probes.map((p) => p.days.first)}::int[],
        ${probes.map((p) => p.days.last)}::int[],
        ${probes.map((p) => `{${p.keys.join(",")}}`)}::text[])
        WITH ORDINALITY
        AS p(id, platform, at, lo, hi, south, north, first_day, last_day, keys, n)`;
}

/**
 * The candidates of the probes (`probe`) among the listings their keys found (`hit`: the probe's
 * ordinal, a listing, how many keys they share): those within the probe's bounds, listed by
 * another contributor or on another platform, ranked by the keys they share, then by how close
 * they start; `also`, a further condition on them (`h`, `p`, `ce`). Each probe keeps its first
 * CANDIDATES_PER_PROBE (a `rank` column). (rankCandidates in indexed-candidates.ts ranks the
 * embedded database's candidates held in memory the same way.)
 */
export function rankedCandidates(sql: Sql, contributorId: string, also = sql`true`) {
  return sql`
      SELECT p.id AS probe, h.shared, ce.*, row_number() OVER (
        PARTITION BY p.n
        ORDER BY h.shared DESC, abs(extract(epoch FROM ce.starts_at - p.at)), ce.id
      ) AS rank
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

/** A candidate as the statements return it: a MatchRow and the probe that found it. */
export type CandidateRow = MatchRow & { probe: string };

/** The pairs (probe, candidate) of the statements' rows. */
export const candidatePairs = (rows: CandidateRow[]) =>
  rows.map(({ probe, ...candidate }) => ({ probe, candidate }));

/**
 * Stores the key sets `sets` (writing only the key rows each gains and deleting those it loses)
 * and returns pairs (probe, candidate) of events that might be the same: sharing a lookup key
 * (server/duplicates/lookup-keys.ts) on days within reach, within the probe's bounds, listed by
 * another contributor or on another platform. One statement for a whole batch (all of
 * `contributorId`'s): the candidates are read from the keys as they were before it, so the
 * batch's new listings are not among them. Run under the duplicates lock (one writer of the key
 * tables at a time: the key rows are exactly those of the sets, so a plain insert never meets
 * a row already there). `allNew`: every set's event was inserted in this transaction. (The
 * embedded database holds its keys in memory instead: indexed-candidates.ts.)
 */
export async function storeKeysAndFindCandidates(
  sql: Sql,
  o: { contributorId: string; sets: KeySetChange[]; probes: Probe[]; allNew: boolean },
): Promise<{ probe: string; candidate: MatchRow }[]> {
  const { probes } = o;
  const ordinals = probes.flatMap((p, i) => p.keys.map(() => i + 1));
  const hashes = probes.flatMap((p) => p.keys.map(String));
  const found = await sql<CandidateRow[]>`
    WITH ${o.allNew ? storeNewSets(sql, o.sets) : storeChangedSets(sql, o.sets)}, probe AS (
      SELECT * FROM ${probeTable(sql, probes)}
    ), hit AS (
      -- LATERAL: one range scan of the index per key, over the rows whose days reach the
      -- probe's (the stretches ending before them are dropped in the index, no event read). A
      -- listing with several stretches in reach counts each key once.
      SELECT p.n, l.event_id, count(DISTINCT k.hash) AS shared
      FROM unnest(${hashes}::bigint[], ${ordinals}::int[]) AS k(hash, n)
      JOIN probe p ON p.n = k.n
      CROSS JOIN LATERAL (
        SELECT l.event_id FROM event_lookup_keys l
        WHERE l.hash = k.hash
          AND l.day BETWEEN p.first_day - ${STRETCH_DAYS - 1} AND p.last_day
          AND l.last >= p.first_day
          -- Read from the index (INCLUDE): a listing of a far city is dropped unread.
          AND (p.south IS NULL OR l.lat = ${NO_DEGREE}
            OR l.lat BETWEEN floor(p.south) AND floor(p.north))
        ORDER BY l.day, l.last, l.event_id
        LIMIT ${KEY_FANOUT}
      ) l
      GROUP BY p.n, l.event_id
    ), ranked AS (${rankedCandidates(sql, o.contributorId)})
    SELECT probe, id, title, source_url, starts_at, ends_at, city, country, latitude, longitude,
           is_virtual, is_hybrid
    FROM ranked WHERE rank <= ${CANDIDATES_PER_PROBE}`;
  return candidatePairs(found);
}
