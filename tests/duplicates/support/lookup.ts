/** Detection's lookup in memory, for tests of the lookup keys. */
import {
  candidateBounds,
  probeKeys,
  storedDays,
  storedKeys,
} from "../../../server/duplicates/lookup-keys.ts";
import type { MatchFacts } from "../../../server/duplicates/match-facts.ts";

/**
 * Whether detection's lookup finds `stored` for `probe`: a key in common, and days in reach (the
 * database then keeps those within `probe`'s bounds).
 */
export function lookupFinds(probe: MatchFacts, stored: MatchFacts): boolean {
  const reach = candidateBounds(probe).days;
  const days = storedDays(stored);
  if (days.first > reach.last || reach.first > days.last) return false;
  const keys = new Set(storedKeys(stored));
  return probeKeys(probe).some((k) => keys.has(k));
}
