/**
 * Words of a search that ask for open calls for papers ("open cfp", "call for papers", "call for
 * speakers"): they become the filter cfp=open, reported as `interpreted.cfp`, unless `cfp` is
 * given explicitly. Words that ask for nothing else ("open cfp", "call for papers") leave no words
 * to search: the search then lists every event with an open call (server/search/search-events.ts).
 */
import type { EventFilters } from "../db/event-filters.ts";

const CFP_PHRASES =
  /\b(?:open\s+(?:cfps?|calls?\s+for\s+(?:papers|speakers|proposals))|cfps?\s+open|calls?\s+for\s+(?:papers|speakers|proposals)|cfps?)\b/gi;

/** The query without its CFP words and the filters with cfp=open, or null when none apply. */
export function readCfpWords(
  q: string,
  filters: Omit<EventFilters, "q">,
): { q: string; filters: Omit<EventFilters, "q">; interpreted: { cfp: "open" } } | null {
  if (filters.cfp !== undefined || q.length > 500) return null;
  const rest = q.replace(CFP_PHRASES, " ").replace(/\s+/g, " ").trim();
  if (rest === q.trim()) return null;
  const words = /[\p{L}\p{N}]/u.test(rest) ? rest : "";
  return { q: words, filters: { ...filters, cfp: "open" }, interpreted: { cfp: "open" } };
}
