/**
 * Detection of one contributor's written listings, in a transaction holding the duplicates lock:
 * each listing's lookup keys are stored, the candidates sharing a key are read in one statement
 * (server/db/match-keys.ts), the matcher judges each pair, the listings' detected links are
 * replaced and the groups around them re-formed. Operators' decisions are links detection never
 * replaces, so they outlast re-pushes.
 */
import type { Sql } from "postgres";
import { groupedAmong, lockDuplicates, replaceDetectedLinks } from "../db/duplicate-links.ts";
import {
  findCandidates,
  type KeySet,
  keySetsOf,
  type MatchRow,
  writeSets,
} from "../db/match-keys.ts";
import { type MatchFacts, matchFactsOf, type MatchSource } from "./match-facts.ts";
import {
  bandLatitude,
  candidateBounds,
  factsFingerprint,
  probeKeys,
  storedDays,
  storedKeys,
} from "./lookup-keys.ts";
import { matchListings } from "./matcher.ts";
import { findVectorCandidates } from "./vector-evidence.ts";
import { regroup } from "./regroup.ts";

/** Milliseconds spent in each step, and counts, added up over calls (for benchmarks). */
export type DetectionTimings = Record<string, number>;

/** Written listings of one contributor, as detection reads them. */
export interface WrittenBatch {
  contributorId: string;
  changed: {
    id: string;
    event: Omit<MatchSource, "id"> & { platform: string };
  }[];
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

function stepTimer(timings: DetectionTimings | undefined): (name: string, count?: number) => void {
  let last = performance.now();
  return (name, count) => {
    if (timings === undefined) return;
    const now = performance.now();
    timings[name] = (timings[name] ?? 0) + now - last;
    if (count !== undefined) timings[`${name} (count)`] = (timings[`${name} (count)`] ?? 0) + count;
    last = now;
  };
}

const sameSet = (a: KeySet | undefined, b: KeySet) =>
  a !== undefined && a.fingerprint === b.fingerprint && a.keys.length === b.keys.length &&
  b.keys.every((k) => a.keys.includes(k));

/**
 * Finds the duplicates of a contributor's written listings and regroups them. A listing whose
 * matched fields are as they were (its stored set names them all) keeps its keys and links, and
 * only its group's canonical choice is looked at again (unless `recompare`).
 */
export async function detectDuplicates(
  sql: Sql,
  batch: WrittenBatch,
  o: DetectionOptions = {},
): Promise<void> {
  const step = stepTimer(o.timings);
  await lockDuplicates(sql);
  step("lock");
  // A time that is no instant in JavaScript (far-off years) has no real-world twin to find.
  const written = batch.changed.map((w) => ({
    platform: w.event.platform,
    facts: matchFactsOf({ ...w.event, id: w.id }),
  })).filter(({ facts: f }) => Number.isFinite(f.start) && Number.isFinite(f.end))
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
  if (fresh.length === 0) {
    // Nothing to compare again; a group's canonical listing may follow the new fields or key.
    const grouped = await groupedAmong(sql, kept);
    if (grouped.length > 0) await regroup(sql, grouped);
    step("regroup");
    return;
  }
  // Stored first, so that the batch's own listings find each other as they find the others.
  await writeSets(
    sql,
    fresh.map((w) => {
      const days = storedDays(w.facts);
      // As its candidate bounds read it: the matcher never joins two listings with coordinates
      // further apart than their bands, unless one is online.
      return {
        event_id: w.facts.id,
        ...w.set,
        firstDay: days.first,
        lastDay: days.last,
        latitude: bandLatitude(w.facts),
      };
    }),
  );
  step("write keys");
  const found = await findCandidates(sql, {
    contributorId: batch.contributorId,
    probes: fresh.map((w) => ({
      id: w.facts.id,
      platform: w.platform,
      keys: probeKeys(w.facts),
      ...candidateBounds(w.facts),
    })),
  });
  step("candidates", found.length);
  const near = o.vectors
    ? await findVectorCandidates(
      sql,
      fresh.map((w) => ({ ...w, contributorId: batch.contributorId })),
    )
    : [];
  const links = matchPairs(new Map(fresh.map((w) => [w.facts.id, w.facts])), {
    found: [...found, ...near],
    similarity: new Map(near.map((p) => [pairId(p.probe, p.candidate.id), p.similarity])),
  });
  step("match", fresh.length);
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
  pairs: {
    found: { probe: string; candidate: MatchRow }[];
    similarity: Map<string, number>;
  },
): { a: string; b: string; score: number }[] {
  const links = new Map<string, { a: string; b: string; score: number }>();
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
    if (verdict.same) links.set(id, { a, b, score: verdict.score });
  }
  return [...links.values()];
}
