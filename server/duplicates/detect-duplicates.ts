/**
 * Detection of stored listings, holding the duplicates lock: each listing's lookup keys are
 * stored, the candidates sharing a key (or, in AI search, a close vector) are read, the matcher
 * judges each pair, detected links are replaced (never operators' decisions) and groups re-formed.
 */
import type { Sql } from "postgres";
import {
  type DetectedLink,
  replaceDetectedLinks,
  underDuplicatesLock,
} from "../db/duplicate-links.ts";
import {
  findCandidates,
  type KeySet,
  keySetsOf,
  type MatchRow,
  writeSets,
} from "../db/match-keys.ts";
import type { RedetectionRow } from "../db/duplicate-rules.ts";
import { eventsInAiSearch, vectorCandidates } from "../db/vector-candidates.ts";
import { type MatchFacts, matchFactsOf } from "./match-facts.ts";
import {
  bandLatitude,
  candidateBounds,
  factsFingerprint,
  probeKeys,
  storedDays,
  storedKeys,
} from "./lookup-keys.ts";
import { matchListings, VECTOR_SAME } from "./matcher.ts";
import { SAME_DAY_MS } from "./title-likeness.ts";
import { regroup } from "./regroup.ts";

/** Milliseconds spent in each step, and counts, added up over calls (for benchmarks). */
export type DetectionTimings = Record<string, number>;

/** How detectStored runs beyond its listings. */
export interface DetectionOptions {
  /** Compare even listings whose matched fields are as they were (new rules, a new vector). */
  recompare: boolean;
  /**
   * Per contributor's listings: whether to compare those in AI search with listings whose
   * vectors are close. Not at ingestion: a new listing has no vector yet, and a changed one an
   * outdated one; the embedding worker detects again once it has one (detectEmbedded).
   */
  vectors: (events: RedetectionRow[]) => boolean;
  timings?: DetectionTimings;
}

// More close vectors in a window are a series' near-identical listings: the closest decide.
const VECTOR_CANDIDATES_PER_PROBE = 10;

/** Detects the duplicates of stored `rows`, one run per contributor; the caller holds the lock. */
export async function detectStored(
  tx: Sql,
  rows: RedetectionRow[],
  o: DetectionOptions,
): Promise<void> {
  for (const [contributorId, events] of Map.groupBy(rows, (row) => row.contributor_id)) {
    await detectDuplicates(tx, contributorId, events, { ...o, vectors: o.vectors(events) });
  }
}

/**
 * Detection again, in a transaction of its own, for those of `eventIds` now in AI search (they
 * just got a vector): the pairs only their vectors reveal are found now.
 */
export async function detectEmbedded(sql: Sql, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await underDuplicatesLock(sql, async (tx) => {
    const rows = await eventsInAiSearch(tx, eventIds);
    await detectStored(tx, rows, { recompare: true, vectors: () => true });
  });
}

function stepTimer(timings: DetectionTimings = {}): (name: string, count?: number) => void {
  let last = performance.now();
  return (name, count) => {
    const now = performance.now();
    timings[name] = (timings[name] ?? 0) + now - last;
    if (count !== undefined) timings[`${name} (count)`] = (timings[`${name} (count)`] ?? 0) + count;
    last = now;
  };
}

// Keys come in one order for the same fields and rules (lookup-keys.ts).
const sameSet = (a: KeySet | undefined, b: KeySet) =>
  a !== undefined && a.fingerprint === b.fingerprint && a.keys.join() === b.keys.join();

/**
 * Finds the duplicates of a contributor's listings and regroups them. A listing whose matched
 * fields are as they were keeps its keys and links (unless `recompare`).
 */
async function detectDuplicates(
  sql: Sql,
  contributorId: string,
  events: RedetectionRow[],
  o: Omit<DetectionOptions, "vectors"> & { vectors: boolean },
): Promise<void> {
  const step = stepTimer(o.timings);
  // A time that is no instant in JavaScript (far-off years) has no real-world twin to find.
  const written = events.map((e) => ({ platform: e.platform, facts: matchFactsOf(e) }))
    .filter(({ facts: f }) => Number.isFinite(f.start) && Number.isFinite(f.end))
    .map((w) => ({
      ...w,
      set: { fingerprint: factsFingerprint(w.facts), keys: storedKeys(w.facts) },
    }));
  const stored = await keySetsOf(sql, written.map((w) => w.facts.id));
  const unchanged = (w: { facts: MatchFacts; set: KeySet }) =>
    !o.recompare && sameSet(stored.get(w.facts.id), w.set);
  const kept = written.filter(unchanged).map((w) => w.facts.id);
  const fresh = written.filter((w) => !unchanged(w));
  step("keys");
  if (fresh.length > 0) {
    // Stored first, so that the batch's own listings find each other as they find the others.
    await writeSets(
      sql,
      fresh.map((w) => ({
        event_id: w.facts.id,
        ...w.set,
        days: storedDays(w.facts),
        latitude: bandLatitude(w.facts),
      })),
    );
    step("write keys");
  }
  const found = await findCandidates(sql, {
    contributorId,
    probes: fresh.map((w) => ({
      id: w.facts.id,
      platform: w.platform,
      keys: probeKeys(w.facts),
      ...candidateBounds(w.facts),
    })),
  });
  step("candidates", found.length);
  // The matcher reads vectors only for listings starting the same day: a few per probe even in
  // a busy calendar, where the keys' window would be days of listings.
  const near = o.vectors && fresh.length > 0
    ? await vectorCandidates(sql, {
      probes: fresh.map((w) => ({
        id: w.facts.id,
        contributorId,
        platform: w.platform,
        from: new Date(w.facts.start - SAME_DAY_MS),
        to: new Date(w.facts.start + SAME_DAY_MS),
        latitudes: candidateBounds(w.facts).latitudes,
      })),
      minSimilarity: VECTOR_SAME,
      perProbe: VECTOR_CANDIDATES_PER_PROBE,
    })
    : [];
  const links = matchPairs(new Map(fresh.map((w) => [w.facts.id, w.facts])), {
    found: [...found, ...near],
    similarity: new Map(near.map((p) => [pairId(p.probe, p.candidate.id), p.similarity])),
  });
  step("match", fresh.length);
  // With nothing fresh this only reads which kept listings are grouped: a group's canonical
  // listing may follow their new fields or key.
  const replacing = fresh.map((w) => w.facts.id);
  const { grouped } = await replaceDetectedLinks(sql, {
    replacing,
    links,
    grouped: [...replacing, ...kept],
  });
  step("write links");
  // Most writes touch no group: nothing linked before, nothing now, in no group.
  const regrouping = new Set([...links.flatMap((l) => [l.a, l.b]), ...grouped]);
  if (regrouping.size > 0) await regroup(sql, [...regrouping]);
  step("regroup");
}

const pairId = (x: string, y: string) => (x < y ? `${x} ${y}` : `${y} ${x}`);

/**
 * The matcher's verdict on each pair, normalising each candidate once; a pair found by its
 * vectors is judged with their similarity, however else it was found.
 */
function matchPairs(
  known: Map<string, MatchFacts>,
  pairs: { found: { probe: string; candidate: MatchRow }[]; similarity: Map<string, number> },
): DetectedLink[] {
  const links: DetectedLink[] = [];
  const seen = new Set<string>();
  for (const { probe, candidate } of pairs.found) {
    if (!known.has(candidate.id)) known.set(candidate.id, matchFactsOf(candidate));
    const id = pairId(probe, candidate.id);
    if (seen.has(id)) continue;
    seen.add(id);
    const [a, b] = probe < candidate.id ? [probe, candidate.id] : [candidate.id, probe];
    const verdict = matchListings(known.get(a)!, known.get(b)!, {
      vectorSimilarity: pairs.similarity.get(id),
    });
    if (verdict.same) links.push({ a, b, score: verdict.score });
  }
  return links;
}
