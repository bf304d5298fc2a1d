/**
 * Detection, run in the transaction that wrote or changed events: each written event is compared
 * with the candidates the indexes find (server/db/match-keys.ts), its detected links are
 * replaced, and the groups around it re-formed. Operators' decisions are links detection never
 * replaces, so they outlast re-pushes.
 */
import type { Sql } from "postgres";
import { groupMatesOf, lockDuplicates, replaceDetectedLinks } from "../db/duplicate-links.ts";
import { findCandidates, writeLookupKeys } from "../db/match-keys.ts";
import type { ChangedEvent } from "../db/events.ts";
import { matchFactsOf } from "./match-facts.ts";
import { probeKeys, storedKeys } from "./lookup-keys.ts";
import { matchListings } from "./matcher.ts";
import { regroup } from "./regroup.ts";

/**
 * Finds the duplicates of the events a batch inserted or changed and regroups them. A new event
 * has no keys, links or group yet: only changed ones have old ones to replace.
 */
export async function detectDuplicates(sql: Sql, written: ChangedEvent[]): Promise<void> {
  if (written.length === 0) return;
  await lockDuplicates(sql);
  const ids = written.map((w) => w.id);
  const updated = written.filter((w) => !w.inserted).map((w) => w.id);
  // A time that is no instant in JavaScript (far-off years) has no real-world twin to find.
  const facts = written.map((w) => matchFactsOf({ ...w.event, id: w.id }))
    .filter((f) => Number.isFinite(f.start) && Number.isFinite(f.end));
  await writeLookupKeys(sql, {
    replacing: updated,
    rows: facts.map((f) => ({ event_id: f.id, keys: storedKeys(f) })),
  });
  const pairs = await findCandidates(sql, facts.map((f) => ({ id: f.id, keys: probeKeys(f) })));
  const known = new Map(facts.map((f) => [f.id, f]));
  for (const { candidate } of pairs) {
    if (!known.has(candidate.id)) known.set(candidate.id, matchFactsOf(candidate));
  }
  const links = new Map<string, { a: string; b: string; score: number }>();
  for (const { probe, candidate: { id } } of pairs) {
    const [a, b] = probe < id ? [probe, id] : [id, probe];
    if (links.has(`${a} ${b}`)) continue;
    const [factsA, factsB] = [known.get(a), known.get(b)];
    if (factsA === undefined || factsB === undefined) continue;
    const verdict = matchListings(factsA, factsB);
    if (verdict.same) links.set(`${a} ${b}`, { a, b, score: verdict.score });
  }
  const removed = await replaceDetectedLinks(sql, {
    replacing: updated,
    links: [...links.values()],
  });
  // Most writes touch no group: nothing linked before, nothing now.
  if (removed > 0 || links.size > 0 || (await groupMatesOf(sql, updated)).length > 0) {
    await regroup(sql, ids);
  }
}
