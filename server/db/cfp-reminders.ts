/**
 * The CFP reminder: a saved search is told once, per event it told of, that the event's call for
 * papers closes within the reminder window. Decided by a periodic pass (the delivery worker's),
 * set-based and bounded, over hits whose event's own CFP is open now and closes within the window,
 * for events of trusted keys (keyFeedsAiSearch) and searches not paused, once the hit's new
 * notice is made (server/db/notices.ts fanOutNewHits). `cfp_reminded_at`
 * records the reminder, so it never repeats; a paused search's hits wait until it is resumed.
 */
import type { Sql } from "postgres";
import { keyFeedsAiSearch } from "./ai-search-rule.ts";
import { cfpOpenAt } from "./cfp-rule.ts";
import { deliveriesOfNotices } from "./notices.ts";

/** Decides up to `limit` reminders of CFPs closing within `days`; returns how many. */
export async function decideCfpReminders(
  sql: Sql,
  o: { days: number; limit: number },
): Promise<number> {
  const rows = await sql`
    WITH due AS (
      SELECT h.saved_search_id, h.event_id FROM events e
      JOIN api_keys k ON k.id = e.last_key_id
      JOIN saved_search_hits h ON h.event_id = e.id AND h.cfp_reminded_at IS NULL
        AND NOT h.notice_pending
      JOIN saved_searches s ON s.id = h.saved_search_id AND NOT s.paused
      WHERE ${cfpOpenAt(sql, sql`now()`)}
        AND e.cfp_closes_at <= now() + make_interval(days => ${o.days}::int)
        AND ${keyFeedsAiSearch(sql)}
      ORDER BY e.cfp_closes_at, h.saved_search_id, h.event_id
      LIMIT ${o.limit}
      FOR UPDATE OF h SKIP LOCKED
    ), reminded AS (
      UPDATE saved_search_hits h SET cfp_reminded_at = now() FROM due
      WHERE h.saved_search_id = due.saved_search_id AND h.event_id = due.event_id
        AND h.cfp_reminded_at IS NULL
      RETURNING h.saved_search_id, h.event_id
    ), n AS (
      INSERT INTO alert_notices (saved_search_id, event_id, kind)
      SELECT saved_search_id, event_id, 'cfp_closing' FROM reminded
      RETURNING id, saved_search_id
    ), d AS (${deliveriesOfNotices(sql)} RETURNING notice_id)
    SELECT count(*)::int AS n FROM n`;
  return rows[0].n;
}

/** Of `eventIds`, those whose CFP reminder the saved search was told. */
export async function cfpRemindedEventIds(
  sql: Sql,
  savedSearchId: string,
  eventIds: string[],
): Promise<Set<string>> {
  const rows = await sql<{ event_id: string }[]>`
    SELECT event_id FROM saved_search_hits
    WHERE saved_search_id = ${savedSearchId} AND event_id = ANY(${eventIds}::uuid[])
      AND cfp_reminded_at IS NOT NULL`;
  return new Set(rows.map((r) => r.event_id));
}
