/**
 * Detection, run in the transaction that wrote or changed events: each written event is compared
 * with the candidates the indexes find (server/db/match-keys.ts), its detected links are
 * replaced, and the groups around it re-formed. Operators' decisions are links detection never
 * replaces, so they outlast re-pushes.
 */
import type { Sql } from "postgres";
import { lockDuplicates, replaceDetectedLinks } from "../db/duplicate-links.ts";
import {
  type CandidateProbe,
  findCandidates,
  type MatchKeyRow,
  matchRowsOf,
  writeMatchKeys,
} from "../db/match-keys.ts";
import { type MatchFacts, matchFactsOf, placeKeyOf } from "./match-facts.ts";
import { matchListings } from "./matcher.ts";
import { regroup } from "./regroup.ts";

const HOUR = 3_600_000;
// Candidates start at most this long after a listing ends...
const SLACK_AFTER = 60 * HOUR;
// ...and at most this long before it starts (a long multi-day listing).
const LONGEST_LISTING = 16 * 24 * HOUR;

const iso = (ms: number) => new Date(ms).toISOString();
const readableTimes = (f: MatchFacts) => Number.isFinite(f.start) && Number.isFinite(f.end);

function keysOf(f: MatchFacts): MatchKeyRow {
  return {
    event_id: f.id,
    starts_at: iso(f.start),
    ends_at: iso(f.end),
    title_words: f.words,
    url_key: f.url,
    place_key: placeKeyOf(f),
  };
}

function probeOf(f: MatchFacts): CandidateProbe {
  return {
    id: f.id,
    from: iso(f.start - LONGEST_LISTING),
    to: iso(f.end + SLACK_AFTER),
    ends_after: iso(f.start - SLACK_AFTER),
    words: f.words,
    url: f.url,
    place: placeKeyOf(f),
  };
}

/** Finds the duplicates of the events `ids` (just written or changed) and regroups them. */
export async function detectDuplicates(sql: Sql, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await lockDuplicates(sql);
  // A time the driver cannot read as an instant (far-off years) has no real-world twin to find.
  const facts = (await matchRowsOf(sql, ids)).map(matchFactsOf).filter(readableTimes);
  await writeMatchKeys(sql, facts.map(keysOf));
  const pairs = await findCandidates(sql, facts.map(probeOf));
  const known = new Map(facts.map((f) => [f.id, f]));
  const missing = [...new Set(pairs.map((p) => p.candidate))].filter((id) => !known.has(id));
  for (const row of await matchRowsOf(sql, missing)) {
    const f = matchFactsOf(row);
    if (readableTimes(f)) known.set(row.id, f);
  }
  const links = new Map<string, { a: string; b: string; score: number }>();
  for (const { probe, candidate } of pairs) {
    const [a, b] = probe < candidate ? [probe, candidate] : [candidate, probe];
    if (links.has(`${a} ${b}`)) continue;
    const [factsA, factsB] = [known.get(a), known.get(b)];
    if (factsA === undefined || factsB === undefined) continue;
    const verdict = matchListings(factsA, factsB);
    if (verdict.same) links.set(`${a} ${b}`, { a, b, score: verdict.score });
  }
  await replaceDetectedLinks(sql, ids, [...links.values()]);
  await regroup(sql, ids);
}
