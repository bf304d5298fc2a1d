/**
 * Detection, run in the transaction that wrote or changed events: each written event is compared
 * with the candidates the indexes find (server/db/match-keys.ts), its detected links are
 * replaced, and the groups around it re-formed. Operators' decisions are links detection never
 * replaces, so they outlast re-pushes.
 */
import type { Sql } from "postgres";
import { groupMatesOf, lockDuplicates, replaceDetectedLinks } from "../db/duplicate-links.ts";
import { findCandidates, matchRowsOf, writeMatchKeys } from "../db/match-keys.ts";
import { matchFactsOf } from "./match-facts.ts";
import { probeKeys, storedKeys } from "./lookup-keys.ts";
import { matchListings } from "./matcher.ts";
import { regroup } from "./regroup.ts";

/** Finds the duplicates of the events `ids` (just written or changed) and regroups them. */
export async function detectDuplicates(sql: Sql, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await lockDuplicates(sql);
  const facts = (await matchRowsOf(sql, ids)).map(matchFactsOf);
  await writeMatchKeys(sql, facts.map((f) => ({ event_id: f.id, lookup: storedKeys(f) })));
  const pairs = await findCandidates(sql, facts.map((f) => ({ id: f.id, keys: probeKeys(f) })));
  const known = new Map(facts.map((f) => [f.id, f]));
  const missing = [...new Set(pairs.map((p) => p.candidate))].filter((id) => !known.has(id));
  for (const row of await matchRowsOf(sql, missing)) known.set(row.id, matchFactsOf(row));
  const links = new Map<string, { a: string; b: string; score: number }>();
  for (const { probe, candidate } of pairs) {
    const [a, b] = probe < candidate ? [probe, candidate] : [candidate, probe];
    if (links.has(`${a} ${b}`)) continue;
    const verdict = matchListings(known.get(a)!, known.get(b)!);
    if (verdict.same) links.set(`${a} ${b}`, { a, b, score: verdict.score });
  }
  const removed = await replaceDetectedLinks(sql, ids, [...links.values()]);
  // Most writes touch no group: nothing linked before, nothing now.
  if (removed > 0 || links.size > 0 || (await groupMatesOf(sql, ids)).length > 0) {
    await regroup(sql, ids);
  }
}
