/**
 * Detection, run in the transaction that wrote or changed events: each written event is compared
 * with the candidates the indexes find (server/db/match-keys.ts), its detected links are
 * replaced, and the groups around it re-formed. Operators' decisions are links detection never
 * replaces, so they outlast re-pushes.
 */
import type { PendingQuery, Row, Sql } from "postgres";
import {
  groupedAmong,
  lockDuplicates,
  replaceDetectedLinks,
  type SessionKeys,
} from "../db/duplicate-links.ts";
import type { IndexedSet } from "../db/key-index.ts";
import {
  type KeySet,
  type KeySetChange,
  keySetsOf,
  type MatchRow,
  writeSets,
} from "../db/match-keys.ts";
import {
  findIndexedCandidates,
  type IndexedCandidates,
  type IndexSearch,
} from "../db/indexed-candidates.ts";
import { type MatchFacts, matchFactsOf, type MatchSource, matchSourceOf } from "./match-facts.ts";
import {
  bandLatitude,
  candidateBounds,
  daysMeet,
  type DaySpan,
  factsFingerprint,
  probeKeys,
  storedDays,
  storedKeys,
} from "./lookup-keys.ts";
import { matchListings } from "./matcher.ts";
import { findVectorCandidates, type VectorProbeSource } from "./vector-evidence.ts";
import { regroup } from "./regroup.ts";

/** Milliseconds spent in each step, added up over calls (for benchmarks). */
export type DetectionTimings = Record<string, number>;

/** The events a batch of one contributor inserted or changed. */
export interface WrittenBatch {
  contributorId: string;
  changed: {
    id: string;
    /** Written new, with no keys or links yet (none is looked for). */
    inserted: boolean;
    event: Omit<MatchSource, "id"> & { platform: string };
  }[];
}

function stepTimer(timings: DetectionTimings | undefined): (name: string) => void {
  let last = performance.now();
  return (name) => {
    if (timings === undefined) return;
    const now = performance.now();
    timings[name] = (timings[name] ?? 0) + now - last;
    last = now;
  };
}

export const sameSet = (a: KeySet | undefined, b: KeySet) =>
  a !== undefined && a.fingerprint === b.fingerprint && a.keys.length === b.keys.length &&
  b.keys.every((k) => a.keys.includes(k));

/** What detection reads of an event, from the fields as written. */
function matchRowOf(id: string, e: Omit<MatchSource, "id">): MatchRow {
  return {
    ...matchSourceOf(e),
    id,
    starts_at: new Date(e.starts_at),
    ends_at: e.ends_at === null ? null : new Date(e.ends_at),
  };
}

/** How detectDuplicates runs beyond its batch. */
export interface DetectionOptions {
  timings?: DetectionTimings;
  /**
   * Compare every listing again, even one whose matched fields are as they were: new rules, or a
   * new vector, may find other pairs.
   */
  recompare?: boolean;
  /**
   * The vector store is prepared: listings in AI search are also compared with those whose
   * vectors are close (vector-evidence.ts). Not at ingestion: a new listing has no vector yet,
   * and a changed one an outdated one; the embedding worker detects again once it has one.
   */
  vectors?: boolean;
}

/** A comparison made before the lock: what it found, if still good under the lock `keys`. */
export interface PriorMatches {
  matchesFor(
    written: WrittenBatch,
    keys: SessionKeys,
    stored: Map<string, KeySet>,
  ): Promise<BatchMatches | null>;
}

/**
 * Finds the duplicates of the events a batch inserted or changed and regroups them. A new event
 * has no keys, links or group yet; a changed one whose matched fields are as they were (its
 * stored keys name them all) keeps its keys and links, and only its group's canonical choice is
 * looked at again (unless `recompare`). A comparison made while the batch was stored (`early`)
 * stands for the first half where it is still good. Returns the session's key index and the
 * transaction's id, as the lock named them.
 */
export async function detectDuplicates(
  sql: Sql,
  batch: WrittenBatch,
  o: DetectionOptions & { early?: PriorMatches | null } = {},
): Promise<SessionKeys> {
  const step = stepTimer(o.timings);
  // First, so that every statement below runs under it (and, on the embedded database, on generic
  // plans: lockDuplicates).
  const keys = await lockDuplicates(sql);
  step("lock");
  // A changed listing's stored set: one whose matched fields are as they were keeps its links.
  const stored = await keySetsOf(sql, batch.changed.filter((w) => !w.inserted).map((w) => w.id));
  const early = o.early ? await o.early.matchesFor(batch, keys, stored) : null;
  // Waiting for the index's thread where its comparison ran longer than the upsert.
  if (o.early) step("early comparison");
  const matches = early ?? await matchBatch(batch, stored, candidatesIn(sql, keys, o), o, step);
  await writeMatches(sql, keys, matches, o, step);
  return keys;
}

/** What detection made of a batch before it writes its links and groups (matchBatch). */
export interface BatchMatches {
  /** Listings whose matched fields are as they were: only their groups are looked at again. */
  kept: string[];
  /** Changed listings compared again: their detected links are replaced. */
  replacing: string[];
  links: { a: string; b: string; score: number }[];
  /**
   * The batch's new key sets, to store and to hold in the index: as `indexed`, or kept on the
   * index's thread by an early comparison (`compared`, its stand-ins and the ids they stand for).
   * None when no listing was compared.
   */
  sets?: {
    changes: KeySetChange[];
    indexed: IndexedSet[];
    compared?: { comparison: number; ids: [standIn: string, id: string][] };
    allNew: boolean;
  };
  /** What the benchmark counts. */
  counts: { candidates: number; keysStored: number; keysLookedUp: number; events: number };
}

/** Where matchBatch finds the candidates of a batch's listings. */
export interface CandidateSource {
  /** By their keys; with the sets to hold in the index. */
  byKeys(search: IndexSearch): Promise<IndexedCandidates>;
  /** By their vectors (vector-evidence.ts), when asked for. */
  byVectors?(written: VectorProbeSource[]): Promise<(Pair & { similarity: number })[]>;
}

type Pair = { probe: string; candidate: MatchRow };

/** The candidates in the session's key index, and by vectors in the database. */
function candidatesIn(sql: Sql, keys: SessionKeys, o: DetectionOptions): CandidateSource {
  return {
    byKeys: (search) => findIndexedCandidates(sql, keys, search),
    byVectors: o.vectors ? (written) => findVectorCandidates(sql, written) : undefined,
  };
}

/**
 * The first half of detection: each written listing's keys, the candidates they find and the
 * matcher's verdicts (a changed listing's `stored` set, when it names the same keys for the same
 * matched fields, keeps it out of the comparison). It writes nothing, and may run before the
 * lock, where the index is (early-comparison.ts), as long as the index does not change before
 * writeMatches.
 */
export async function matchBatch(
  batch: WrittenBatch,
  stored: Map<string, KeySet>,
  source: CandidateSource,
  o: DetectionOptions = {},
  step = stepTimer(o.timings),
): Promise<BatchMatches> {
  // A time that is no instant in JavaScript (far-off years) has no real-world twin to find.
  const written = batch.changed.map((w) => ({
    inserted: w.inserted,
    platform: w.event.platform,
    facts: matchFactsOf({ ...w.event, id: w.id }),
    event: w.event,
  })).filter(({ facts: f }) => Number.isFinite(f.start) && Number.isFinite(f.end))
    .map((w) => ({
      ...w,
      set: { fingerprint: factsFingerprint(w.facts), keys: storedKeys(w.facts) },
    }));
  const unchanged = (w: { facts: MatchFacts; set: KeySet }) =>
    !o.recompare && sameSet(stored.get(w.facts.id), w.set);
  const kept = written.filter(unchanged).map((w) => w.facts.id);
  const fresh = written.filter((w) => !unchanged(w));
  step("facts and keys");
  const replacing = fresh.filter((w) => !w.inserted).map((w) => w.facts.id);
  const probes = fresh.map((w) => ({
    id: w.facts.id,
    platform: w.platform,
    keys: probeKeys(w.facts),
    ...candidateBounds(w.facts),
  }));
  const counts = {
    candidates: 0,
    keysStored: fresh.reduce((n, w) => n + w.set.keys.length, 0),
    keysLookedUp: probes.reduce((n, p) => n + p.keys.length, 0),
    events: fresh.length,
  };
  if (fresh.length === 0) return { kept, replacing, links: [], counts };
  const search = {
    contributorId: batch.contributorId,
    sets: fresh.map((w) => {
      const days = storedDays(w.facts);
      return {
        event_id: w.facts.id,
        ...w.set,
        firstDay: days.first,
        lastDay: days.last,
        // As its candidate bounds read it: the matcher never joins two listings with coordinates
        // further apart than their bands, unless one is online.
        latitude: bandLatitude(w.facts),
      };
    }),
    probes,
    allNew: replacing.length === 0,
    rows: new Map(fresh.map((w) => [w.facts.id, matchRowOf(w.facts.id, w.event)])),
  };
  const found = await source.byKeys(search);
  step("keys and candidates");
  const near = source.byVectors
    ? await source.byVectors(fresh.map((w) => ({ ...w, contributorId: batch.contributorId })))
    : [];
  if (source.byVectors) step("vector candidates");
  const links = matchPairs(new Map(fresh.map((w) => [w.facts.id, w.facts])), {
    found: [...found.pairs, ...near],
    within: pairsWithinBatch(fresh, probes),
    similarity: new Map(near.map((p) => [pairId(p.probe, p.candidate.id), p.similarity])),
  });
  step("match");
  counts.candidates = found.pairs.length;
  return {
    kept,
    replacing,
    links,
    sets: { changes: search.sets, indexed: found.indexed, allNew: search.allNew },
    counts,
  };
}

/**
 * The second half of detection, under the duplicates lock (`keys`, as lockDuplicates returned
 * them): the batch's key sets stored with its links, its listings' detected links replaced, and
 * the groups around them re-formed.
 */
async function writeMatches(
  sql: Sql,
  keys: SessionKeys,
  m: BatchMatches,
  o: DetectionOptions,
  step: (name: string) => void,
): Promise<void> {
  if (m.counts.events === 0) {
    // Nothing to compare again; a group's canonical listing may follow the new fields or key.
    const grouped = await groupedAmong(sql, m.kept);
    if (grouped.length > 0) await regroup(sql, grouped);
    step("regroup");
    return;
  }
  let setsWrite: PendingQuery<Row[]> | undefined;
  if (m.sets !== undefined) {
    // Held unsettled until the index learns that this transaction committed (key-index.ts).
    const { compared } = m.sets;
    if (compared === undefined) keys.index.write(m.sets.indexed, keys.xid);
    else keys.index.writeCompared(compared.comparison, compared.ids, keys.xid);
    setsWrite = writeSets(sql, m.sets.changes, {
      allNew: m.sets.allNew,
      numbered: keys.index.shared,
    });
  }
  const { replacing, links } = m;
  const { removed, grouped } = await replaceDetectedLinks(sql, {
    replacing,
    links,
    also: setsWrite,
    grouped: [...replacing, ...m.kept],
  });
  step("write links");
  // Most writes touch no group: nothing linked before, nothing now, in no group.
  const seeds = new Set(links.flatMap((l) => [l.a, l.b]));
  const changedBefore = removed > 0 ? replacing : [];
  const regrouping = new Set([...seeds, ...changedBefore, ...grouped]);
  if (regrouping.size > 0) await regroup(sql, [...regrouping]);
  step("regroup");
  if (o.timings !== undefined) {
    const add = (name: string, n: number) => o.timings![name] = (o.timings![name] ?? 0) + n;
    add("candidates", m.counts.candidates);
    add("keys stored", m.counts.keysStored);
    add("keys looked up", m.counts.keysLookedUp);
    add("events", m.counts.events);
    add("batches", 1);
  }
}

/**
 * Pairs of the batch's own listings on different platforms sharing a key on days within reach:
 * the index holds their sets only once they are written.
 */
function pairsWithinBatch(
  fresh: { platform: string; set: KeySet; facts: MatchFacts }[],
  probes: { id: string; keys: number[]; days: DaySpan }[],
): [string, string][] {
  const holders = new Map<number, number[]>();
  fresh.forEach((w, i) => {
    for (const k of w.set.keys) {
      const held = holders.get(k);
      if (held) held.push(i);
      else holders.set(k, [i]);
    }
  });
  const days = fresh.map((w) => storedDays(w.facts));
  const pairs: [string, string][] = [];
  probes.forEach((p, i) => {
    const found = new Set(p.keys.flatMap((k) => holders.get(k) ?? []));
    for (const j of found) {
      if (j === i || fresh[j].platform === fresh[i].platform) continue;
      if (!daysMeet(days[j], p.days)) continue;
      pairs.push([p.id, fresh[j].facts.id]);
    }
  });
  return pairs;
}

const pairId = (x: string, y: string) => (x < y ? `${x} ${y}` : `${y} ${x}`);

/**
 * The matcher's verdict on each pair, normalising each candidate once; a pair found by its
 * vectors is judged with their similarity, however else it was found.
 */
function matchPairs(
  known: Map<string, MatchFacts>,
  pairs: {
    found: { probe: string; candidate: MatchRow }[];
    within: [string, string][];
    similarity: Map<string, number>;
  },
): { a: string; b: string; score: number }[] {
  for (const { candidate } of pairs.found) {
    if (!known.has(candidate.id)) known.set(candidate.id, matchFactsOf(candidate));
  }
  const links = new Map<string, { a: string; b: string; score: number }>();
  const seen = new Set<string>();
  const all = [
    ...pairs.found.map((p): [string, string] => [p.probe, p.candidate.id]),
    ...pairs.within,
  ];
  for (const [probe, id] of all) {
    const [a, b] = probe < id ? [probe, id] : [id, probe];
    if (seen.has(`${a} ${b}`)) continue;
    seen.add(`${a} ${b}`);
    const verdict = matchListings(known.get(a)!, known.get(b)!, {
      vectorSimilarity: pairs.similarity.get(`${a} ${b}`),
    });
    if (verdict.same) links.set(`${a} ${b}`, { a, b, score: verdict.score });
  }
  return [...links.values()];
}
