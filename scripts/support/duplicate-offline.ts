/**
 * The duplicates evaluation without the service: the same normalisers, lookup keys and matcher
 * detection runs, applied in memory to every listing at once, and the links joined into groups
 * as server/duplicates/form-groups.ts joins them. Seconds instead of minutes, for working on the
 * rules; the figures in docs/duplicates.md come from the service (scripts/eval-duplicates.ts).
 * One difference: the database returns at most 50 candidates a listing, this returns all.
 */
import { EventInput } from "../../shared/event-schema.ts";
import { matchFactsOf } from "../../server/duplicates/match-facts.ts";
import { probeKeys, storedKeys } from "../../server/duplicates/lookup-keys.ts";
import { matchListings } from "../../server/duplicates/matcher.ts";
import { formGroups } from "../../server/duplicates/form-groups.ts";
import type { SourceEvent } from "./duplicate-sources.ts";
import { type PairKey, pairKey } from "./duplicate-eval.ts";

/** The pairs of listings of different lists that detection would group. */
export function offlinePairs(sources: { name: string; events: SourceEvent[] }[]): Set<PairKey> {
  const listOf = new Map<string, string>();
  const facts = sources.flatMap((s) =>
    s.events.map((e) => {
      const record = EventInput.parse(e);
      listOf.set(e.external_id, s.name);
      return matchFactsOf({ ...record, id: e.external_id });
    })
  );
  const byKey = new Map<number, string[]>();
  for (const f of facts) {
    for (const k of storedKeys(f)) {
      const ids = byKey.get(k);
      if (ids) ids.push(f.id);
      else byKey.set(k, [f.id]);
    }
  }
  const known = new Map(facts.map((f) => [f.id, f]));
  const links = new Map<string, { a: string; b: string; score: number; kind: "detected" }>();
  for (const f of facts) {
    for (const k of probeKeys(f)) {
      for (const id of byKey.get(k) ?? []) {
        if (listOf.get(id) === listOf.get(f.id)) continue;
        const [a, b] = f.id < id ? [f.id, id] : [id, f.id];
        if (links.has(`${a} ${b}`)) continue;
        const verdict = matchListings(known.get(a)!, known.get(b)!);
        if (verdict.same) links.set(`${a} ${b}`, { a, b, score: verdict.score, kind: "detected" });
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
