/**
 * The CFP reminder: a saved search is told once, per event it told of, that the event's call for
 * papers closes within the reminder window. Decided by a periodic pass (the delivery worker's),
 * set-based and bounded, over the searches told of an event (`alert_hits`) whose own CFP is open
 * now and closes within the window, for events of trusted keys (keyFeedsAiSearch) and searches not
 * paused, once the match's new notice is made (server/db/notices.ts fanOutNewHits). A row of
 * `alert_cfp_reminded` records the reminder, so it never repeats; a paused search's hits wait until
 * it is resumed.
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
      SELECT s.id AS saved_search_id, e.id AS event_id FROM events e
      JOIN api_keys k ON k.id = e.last_key_id
      JOIN alert_hits h ON h.event_id = e.id
      CROSS JOIN unnest(h.saved_search_ids) AS t (id)
      JOIN saved_searches s ON s.id = t.id AND NOT s.paused
      WHERE ${cfpOpenAt(sql, sql`now()`)}
        AND e.cfp_closes_at <= now() + make_interval(days => ${o.days}::int)
        AND ${keyFeedsAiSearch(sql)}
        AND NOT EXISTS (
          SELECT 1 FROM alert_cfp_reminded r WHERE r.event_id = e.id AND r.saved_search_id = s.id)
        AND NOT EXISTS (
          SELECT 1 FROM alert_pending_new p WHERE p.event_id = e.id AND p.saved_search_id = s.id)
      ORDER BY e.cfp_closes_at, s.id, e.id
      LIMIT ${o.limit}
    ), reminded AS (
      -- Another worker's pass reminding the same pair meanwhile wins; this one skips it.
      INSERT INTO alert_cfp_reminded (event_id, saved_search_id)
      SELECT event_id, saved_search_id FROM due
      ON CONFLICT DO NOTHING
      RETURNING saved_search_id, event_id
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
    SELECT event_id FROM alert_cfp_reminded
    WHERE event_id = ANY(${eventIds}::uuid[]) AND saved_search_id = ${savedSearchId}`;
  return new Set(rows.map((r) => r.event_id));
}
