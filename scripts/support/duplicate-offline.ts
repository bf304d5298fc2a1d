/**
 * The duplicates evaluation without the service: the same normalisers, lookup keys and matcher
 * detection runs, applied in memory to every listing at once, and the links joined into groups
 * as server/duplicates/regroup.ts joins them. Seconds instead of minutes, for working on the
 * rules; the figures in docs/duplicates.md come from the service (scripts/eval-duplicates.ts).
 * One difference: the database returns at most 50 candidates a listing, this returns all.
 *
 * With `vectors` (every listing's, as if every key were trusted), listings whose vectors are at
 * least VECTOR_CANDIDATE alike within a listing's candidate bounds are candidates too, and the
 * matcher reads their similarity, as detection does with vectors (server/duplicates/
 * detect-duplicates.ts).
 */
import { EventInput } from "../../shared/event-schema.ts";
import { type MatchFacts, matchFactsOf } from "../../server/duplicates/match-facts.ts";
import type { DaySpan } from "../../server/db/match-keys.ts";
import {
  candidateBounds,
  probeKeys,
  storedDays,
  storedKeys,
} from "../../server/duplicates/lookup-keys.ts";
import { matchListings } from "../../server/duplicates/matcher.ts";
import { formGroups } from "../../server/duplicates/regroup.ts";
import { VECTOR_SAME as VECTOR_CANDIDATE } from "../../server/duplicates/matcher.ts";
import type { SourceEvent } from "./duplicate-sources.ts";
import { type PairKey, pairKey } from "./duplicate-eval.ts";

const LONGEST_SPAN = 16 * 86_400_000;

/** Whether two spans of days share a day. */
const meet = (a: DaySpan, b: DaySpan) => a.first <= b.last && b.first <= a.last;

/** The cosine similarity of two unit vectors. */
export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}

/** The listings of other lists within `f`'s candidate bounds (as server/db/vector-candidates.ts). */
function* withinBounds(f: MatchFacts, byStart: MatchFacts[]): Generator<MatchFacts> {
  const bounds = candidateBounds(f);
  const [from, to] = [bounds.from.getTime(), bounds.to.getTime()];
  let lo = 0;
  let hi = byStart.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byStart[mid].start < from - LONGEST_SPAN) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < byStart.length && byStart[i].start <= to; i++) {
    const c = byStart[i];
    if (c.id === f.id || c.end < from) continue;
    const lat = bounds.latitudes;
    if (lat && c.point && !c.online && (c.point.latitude < lat[0] || c.point.latitude > lat[1])) {
      continue;
    }
    yield c;
  }
}

/**
 * Every pair (probe, holder) of two listings sharing a key on days within the probe's reach, as
 * detection's lookup finds them in the database (each pair once a probe, in the order found).
 */
export function keyPairs(facts: MatchFacts[]): [MatchFacts, MatchFacts][] {
  const byKey = new Map<number, MatchFacts[]>();
  for (const f of facts) {
    for (const k of storedKeys(f)) {
      const held = byKey.get(k);
      if (held) held.push(f);
      else byKey.set(k, [f]);
    }
  }
  const pairs: [MatchFacts, MatchFacts][] = [];
  for (const f of facts) {
    const reach = candidateBounds(f).days;
    const found = new Set<MatchFacts>();
    for (const k of probeKeys(f)) {
      for (const c of byKey.get(k) ?? []) {
        if (c !== f && meet(storedDays(c), reach)) found.add(c);
      }
    }
    for (const c of found) pairs.push([f, c]);
  }
  return pairs;
}

/** The pairs of listings of different lists that detection would group. */
export function offlinePairs(
  sources: { name: string; events: SourceEvent[] }[],
  o: { vectors?: Map<string, number[]> } = {},
): Set<PairKey> {
  const listOf = new Map<string, string>();
  const facts = sources.flatMap((s) =>
    s.events.map((e) => {
      const record = EventInput.parse(e);
      listOf.set(e.external_id, s.name);
      return matchFactsOf({ ...record, id: e.external_id });
    })
  );
  const known = new Map(facts.map((f) => [f.id, f]));
  const links = new Map<string, { a: string; b: string; score: number; kind: "detected" }>();
  const compare = (x: string, y: string, vectorSimilarity?: number) => {
    if (listOf.get(x) === listOf.get(y)) return;
    const [a, b] = x < y ? [x, y] : [y, x];
    if (links.has(`${a} ${b}`)) return;
    const va = o.vectors?.get(a);
    const vb = o.vectors?.get(b);
    const similarity = vectorSimilarity ?? (va && vb ? cosine(va, vb) : undefined);
    const verdict = matchListings(known.get(a)!, known.get(b)!, { vectorSimilarity: similarity });
    if (verdict.same) links.set(`${a} ${b}`, { a, b, score: verdict.score, kind: "detected" });
  };
  for (const [f, c] of keyPairs(facts)) compare(f.id, c.id);
  if (o.vectors) {
    const byStart = [...facts].sort((x, y) => x.start - y.start);
    for (const f of facts) {
      const v = o.vectors.get(f.id)!;
      for (const c of withinBounds(f, byStart)) {
        const similarity = cosine(v, o.vectors.get(c.id)!);
        if (similarity >= VECTOR_CANDIDATE) compare(f.id, c.id, similarity);
      }
    }
  }
  const groups = formGroups(facts.map((f) => f.id), [...links.values()]);
  const pairs = new Set<PairKey>();
  for (const g of groups) {
    for (let i = 0; i < g.length; i++) {
      for (let j = i + 1; j < g.length; j++) pairs.add(pairKey(g[i], g[j]));
    }
  }
  return pairs;
}
