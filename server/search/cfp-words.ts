/**
 * Words of a search that ask for open calls for papers ("open cfp", "call for papers", "call for
 * speakers"): they become the filter cfp=open, reported as `interpreted.cfp`, unless `cfp` is
 * given explicitly. Like the other readings (server/search/interpret-query.ts) they leave the
 * query only when other words remain, so a query is never emptied.
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
  if (rest === q.trim() || !/[\p{L}\p{N}]/u.test(rest)) return null;
  return { q: rest, filters: { ...filters, cfp: "open" }, interpreted: { cfp: "open" } };
}
