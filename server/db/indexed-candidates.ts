/**
 * Detection's lookups: the lookup keys are held in memory (key-index.ts, on a thread of their own:
 * key-index-thread.ts) with what detection reads of each listing; the keys are looked up there,
 * the listings they find are checked against their probes' bounds there, and ranked here. The
 * duplicates lock's statement tells the index which transactions that wrote sets committed; only a
 * listing whose set still waits to be settled (written by a transaction not ended yet, so the event
 * may be as either transaction leaves it) is read from the database. The batch's sets are written
 * with its links, in one statement.
 */
import type { Sql } from "postgres";
import { type SessionKeys, underDuplicatesLock } from "./duplicate-links.ts";
import type { IndexedSet, KeyIndex } from "./key-index.ts";
import {
  type CandidateRow,
  CANDIDATES_PER_PROBE,
  KEY_FANOUT,
  type KeySetChange,
  matchColumns,
  type MatchRow,
  type Probe,
  probeTable,
  readCandidates,
} from "./match-keys.ts";
import { degreeOf } from "./key-rows.ts";

/** A listing found for a probe, and how many of the probe's keys it holds. */
interface Found {
  probe: Probe;
  shared: number;
  candidate: MatchRow;
}

/** What detection looks up in the index for a batch, and the key sets it will write. */
export interface IndexSearch {
  contributorId: string;
  sets: KeySetChange[];
  probes: Probe[];
  allNew: boolean;
  /** What detection reads of each set's event, as the batch wrote it. */
  rows: Map<string, MatchRow>;
}

/** What the index found for a batch's probes (each named by its place among them). */
export interface IndexLookup {
  found: { n: number; shared: number; candidate: MatchRow }[];
  /** Hits on listings whose set waits to be settled: read from the database (n: from 1). */
  waiting: { n: number[]; id: string[]; shared: number[] };
  /** The probes with such hits, in the order `waiting.n` counts them. */
  asked: number[];
}

/**
 * The lookups of `o`'s probes in the index, each listing found checked against its probe's bounds;
 * run where the index is (its thread).
 */
export function lookUpIndex(
  index: KeyIndex,
  o: Pick<IndexSearch, "contributorId" | "probes">,
): IndexLookup {
  const looked: IndexLookup = { found: [], waiting: { n: [], id: [], shared: [] }, asked: [] };
  o.probes.forEach((p, n) => {
    const reach = { first: p.days.first, last: p.days.last, latitudes: p.latitudes };
    const probe = { keys: p.keys, reach, owner: o.contributorId, platform: p.platform };
    for (const [id, shared] of index.find(probe, KEY_FANOUT)) {
      const candidate = index.storedRow(id);
      if (candidate === null) {
        if (looked.asked.at(-1) !== n) looked.asked.push(n);
        looked.waiting.n.push(looked.asked.length);
        looked.waiting.id.push(id);
        looked.waiting.shared.push(shared);
      } else if (withinBounds(p, candidate)) {
        looked.found.push({ n, shared, candidate });
      }
    }
  });
  return looked;
}

/** What a batch's candidates are, and the key sets to hold in the index once written. */
export interface IndexedCandidates {
  pairs: { probe: string; candidate: MatchRow }[];
  indexed: IndexedSet[];
}

/**
 * Pairs (probe, candidate) of events that might be the same: sharing a lookup key
 * (server/duplicates/lookup-keys.ts) on days within reach, within the probe's bounds, listed by
 * another contributor or on another platform; and the key sets to hold in the index (written with
 * the batch's links: detect-duplicates.ts). Run under the duplicates lock, with the session's keys
 * it returned: the index is built if it is not, then learns the sets other servers wrote
 * (KeyIndexClient.catchUp).
 */
export async function findIndexedCandidates(
  sql: Sql,
  keys: SessionKeys,
  o: IndexSearch,
): Promise<IndexedCandidates> {
  const { index } = keys;
  await index.ensureBuilt(sql);
  // Also after a build: one made on an earlier snapshot (`prepare`) may have missed sets.
  await index.catchUp(sql);
  const looked = await index.ask<IndexLookup>("lookUp", {
    contributorId: o.contributorId,
    probes: o.probes,
  });
  const found = foundOf(o.probes, looked);
  if (looked.asked.length > 0) {
    // Sets another transaction wrote and has not ended (the lock learnt all the others'
    // outcomes): their listings are read as the database holds them.
    const asked = looked.asked.map((n) => o.probes[n]);
    const { waiting } = looked;
    const rows = await sql<(CandidateRow & { shared: number })[]>`
      WITH probe AS (
        SELECT * FROM ${probeTable(sql, asked)}
      ), hit AS (
        SELECT * FROM unnest(${waiting.n}::int[], ${waiting.id}::uuid[], ${waiting.shared}::int[])
          AS h(n, event_id, shared)
      ), candidate AS (${
      readCandidates(
        sql,
        o.contributorId,
        // The set stored holds a key of the probe: the index may hold one a transaction replaced.
        sql`EXISTS (SELECT FROM event_key_sets s
                    WHERE s.event_id = h.event_id AND s.keys && p.keys::bigint[])`,
      )
    })
      SELECT probe, shared, id, ${matchColumns(sql)} FROM candidate e`;
    const probes = new Map(asked.map((p) => [p.id, p]));
    for (const { probe, shared, ...candidate } of rows) {
      found.push({ probe: probes.get(probe)!, shared, candidate });
    }
  }
  return { pairs: rankCandidates(found), indexed: indexedSets(o) };
}

/**
 * The candidates of `o`'s probes from the index alone, where it is (its thread); null when a
 * listing found waits to be settled (only the database knows it then).
 */
export function findInIndex(index: KeyIndex, o: IndexSearch): IndexedCandidates | null {
  const looked = lookUpIndex(index, o);
  if (looked.asked.length > 0) return null;
  return { pairs: rankCandidates(foundOf(o.probes, looked)), indexed: indexedSets(o) };
}

function foundOf(probes: Probe[], looked: IndexLookup): Found[] {
  return looked.found.map((f) => ({
    probe: probes[f.n],
    shared: f.shared,
    candidate: f.candidate,
  }));
}

/** The batch's sets as the index holds them. */
function indexedSets(o: IndexSearch): IndexedSet[] {
  const platforms = new Map(o.probes.map((p) => [p.id, p.platform]));
  return o.sets.map((s) => ({
    eventId: s.event_id,
    keys: s.keys,
    firstDay: s.firstDay,
    lastDay: s.lastDay,
    degree: degreeOf(s.latitude),
    owner: o.contributorId,
    platform: platforms.get(s.event_id)!,
    row: o.rows.get(s.event_id)!,
  }));
}

/**
 * Whether `c` is within `p`'s bounds, as readCandidates's conditions read them: another
 * listing, touching its span, and in its latitude band (or without coordinates, or online).
 */
function withinBounds(p: Probe, c: MatchRow): boolean {
  if (c.id === p.id) return false;
  const start = c.starts_at.getTime();
  const end = c.ends_at === null ? start : Math.max(start, c.ends_at.getTime());
  if (start > p.to.getTime() || end < p.from.getTime()) return false;
  const band = p.latitudes;
  return band === null || c.latitude === null || c.is_virtual ||
    (c.latitude >= band[0] && c.latitude <= band[1]);
}

/**
 * Each probe's first CANDIDATES_PER_PROBE of `found`: those sharing the most keys, then the
 * closest in time, then by id.
 */
function rankCandidates(found: Found[]): { probe: string; candidate: MatchRow }[] {
  const byProbe = new Map<Probe, Found[]>();
  for (const f of found) {
    const list = byProbe.get(f.probe);
    if (list) list.push(f);
    else byProbe.set(f.probe, [f]);
  }
  const ranked: { probe: string; candidate: MatchRow }[] = [];
  for (const [probe, list] of byProbe) {
    const at = probe.at.getTime();
    const gap = (f: Found) => Math.abs(f.candidate.starts_at.getTime() - at);
    list.sort((a, b) =>
      b.shared - a.shared || gap(a) - gap(b) ||
      (a.candidate.id < b.candidate.id ? -1 : a.candidate.id > b.candidate.id ? 1 : 0)
    );
    for (const f of list.slice(0, CANDIDATES_PER_PROBE)) {
      ranked.push({ probe: probe.id, candidate: f.candidate });
    }
  }
  return ranked;
}

/**
 * Forgets the listings of the session's key index whose set is gone from the database
 * (`KeyIndex.prune`), under the duplicates lock: no set is written between its reads and the
 * pruning. Returns how many it forgot.
 */
export async function pruneKeyIndex(sql: Sql): Promise<number> {
  return await underDuplicatesLock(
    sql,
    async (tx, keys) => keys.index.built ? await keys.index.prune(tx) : 0,
  );
}
