/**
 * Deciding notices: one set-based pass per batch against every saved search (percolation), in
 * the transaction that saw the reason. What was told is one row per event (`alert_hits`, the ids
 * of the searches told of it, migration 038); a new match of a search with a channel is also a
 * row to notify, of which the delivery worker makes its notice and deliveries (one per channel)
 * off the batch's path (fanOutNewHits). Changes and removals, rarer, write their notices and
 * deliveries at once. Only events the AI-search rule admits notify (keyFeedsAiSearch: a trusted,
 * unrevoked key last wrote them); a paused search is told nothing.
 *
 * - new: an event matches a search it was written after, and neither it nor another listing of
 *   its real-world event (its duplicate group) was told of to that search before;
 * - changed: an event told of has a new start or place;
 * - removed: an event told of is deleted.
 */
import type { Fragment, Sql } from "postgres";
import { keyFeedsAiSearch } from "./ai-search-rule.ts";
import { anchorKeys, placeOf, savedSearchMatches } from "./saved-search-match.ts";

/** Which events a pass looks at: a batch's ids, or every event a key last wrote. */
export type NoticeSource = { eventIds: string[] } | { keyId: string };

function sourceCondition(sql: Sql, source: NoticeSource): Fragment {
  return "keyId" in source
    ? sql`e.last_key_id = ${source.keyId}`
    : sql`e.id = ANY(${source.eventIds}::uuid[])`;
}

/**
 * After the CTE `n` inserted notices (returning id and saved_search_id): their deliveries, a
 * webhook while the search has an enabled one, an instant mail while its account's address is
 * confirmed. Daily mails are gathered from the notices themselves.
 */
export function deliveriesOfNotices(sql: Sql): Fragment {
  return sql`
    INSERT INTO alert_deliveries (notice_id, channel)
    SELECT n.id, c.channel FROM n
    JOIN saved_searches s ON s.id = n.saved_search_id
    CROSS JOIN (VALUES ('webhook'), ('email')) AS c (channel)
    WHERE (c.channel = 'webhook' AND s.webhook_url IS NOT NULL AND s.webhook_disabled_at IS NULL)
       OR (c.channel = 'email' AND s.email = 'instant' AND EXISTS (
             SELECT 1 FROM accounts a
             WHERE a.contributor_id = s.contributor_id AND a.email_verified_at IS NOT NULL))`;
}

/**
 * Decides every notice the events of `source` give; returns how many, counting new matches whose
 * notices the delivery worker is to make (fanOutNewHits).
 */
export async function decideNotices(sql: Sql, source: NoticeSource): Promise<number> {
  if ("eventIds" in source && source.eventIds.length === 0) return 0;
  // Changes first: only events told of before this pass can have changed.
  return await decideChanges(sql, source) + await decideNewMatches(sql, source);
}

/**
 * New matches (see the module comment): appended to their event's row of `alert_hits` (what the
 * feeds list), and for a search with a channel to tell (a webhook, or mail) a row of
 * `alert_pending_new`, of which `fanOutNewHits` makes the notice. Returns how many are pending.
 */
async function decideNewMatches(sql: Sql, source: NoticeSource): Promise<number> {
  // Each search has one anchor and an event's keys are distinct: a pair is a candidate once.
  // What is asked of each event alone (its group, whom it was told to) is read once per event,
  // in `batch`, not once per candidate pair.
  const rows = await sql`
    WITH batch AS MATERIALIZED (
      SELECT e.*, g.group_id, g.canonical, h.saved_search_ids AS told FROM events e
      JOIN api_keys k ON k.id = e.last_key_id
      LEFT JOIN event_group_members g ON g.event_id = e.id
      LEFT JOIN alert_hits h ON h.event_id = e.id
      WHERE ${sourceCondition(sql, source)} AND ${keyFeedsAiSearch(sql)}
    ), ${anchorKeys(sql)}, matched AS MATERIALIZED (
      SELECT s.id AS saved_search_id, e.id AS event_id, e.group_id, e.canonical,
        (s.webhook_url IS NOT NULL AND s.webhook_disabled_at IS NULL) OR s.email <> 'off' AS tells
      FROM keys k
      JOIN saved_searches s ON s.anchor = k.anchor AND NOT s.paused
      JOIN batch e ON e.id = k.event_id
      WHERE e.created_at >= s.created_at AND ${savedSearchMatches(sql)}
        -- Told of already: the event itself, or (grouped) any listing of its group.
        AND (e.told IS NULL OR NOT s.id = ANY(e.told))
        AND (e.group_id IS NULL OR NOT EXISTS (
          SELECT 1 FROM event_group_members o JOIN alert_hits oh ON oh.event_id = o.event_id
          WHERE o.group_id = e.group_id AND s.id = ANY(oh.saved_search_ids)))
    ), fresh AS MATERIALIZED (
      SELECT saved_search_id, event_id, tells FROM matched WHERE group_id IS NULL
      UNION ALL (
        -- One listing per group and search, its canonical one first.
        SELECT DISTINCT ON (saved_search_id, group_id) saved_search_id, event_id, tells
        FROM matched WHERE group_id IS NOT NULL
        ORDER BY saved_search_id, group_id, canonical DESC, event_id)
    ), stored AS (
      INSERT INTO alert_hits AS h (event_id, saved_search_ids, starts_at, place, title, source_url)
      SELECT e.id, f.ids, e.starts_at, ${placeOf(sql)}, e.title, e.source_url
      FROM (SELECT event_id, array_agg(saved_search_id) AS ids FROM fresh GROUP BY event_id) f
      JOIN batch e ON e.id = f.event_id
      ON CONFLICT (event_id) DO UPDATE
        SET saved_search_ids = h.saved_search_ids || excluded.saved_search_ids
    ), pending AS (
      INSERT INTO alert_pending_new (event_id, saved_search_id)
      SELECT event_id, saved_search_id FROM fresh WHERE tells
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM pending)::int AS n`;
  return rows[0].n;
}

/**
 * The delivery worker's pass over new matches: takes up to `limit` pending ones off
 * `alert_pending_new` and writes their `new` notices with their deliveries, in one statement (so
 * a crash leaves a match pending, never half told). A search paused meanwhile is told nothing.
 * Returns how many it took.
 */
export async function fanOutNewHits(sql: Sql, limit: number): Promise<number> {
  const rows = await sql`
    WITH due AS (
      SELECT event_id, saved_search_id FROM alert_pending_new
      ORDER BY matched_at LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ), taken AS (
      DELETE FROM alert_pending_new p USING due
      WHERE p.event_id = due.event_id AND p.saved_search_id = due.saved_search_id
      RETURNING p.saved_search_id, p.event_id
    ), n AS (
      INSERT INTO alert_notices (saved_search_id, event_id, kind)
      SELECT t.saved_search_id, t.event_id, 'new' FROM taken t
      JOIN saved_searches s ON s.id = t.saved_search_id
      WHERE NOT s.paused
      RETURNING id, saved_search_id
    ), d AS (${deliveriesOfNotices(sql)} RETURNING notice_id)
    SELECT count(*)::int AS n FROM taken`;
  return rows[0].n;
}

/** Notices of a new start or place of events told of; their hits take the new values. */
async function decideChanges(sql: Sql, source: NoticeSource): Promise<number> {
  const rows = await sql`
    WITH changed AS (
      UPDATE alert_hits h SET starts_at = e.starts_at, place = ${placeOf(sql)},
        title = e.title, source_url = e.source_url
      FROM events e JOIN api_keys k ON k.id = e.last_key_id
      WHERE h.event_id = e.id AND ${sourceCondition(sql, source)} AND ${keyFeedsAiSearch(sql)}
        AND (h.starts_at <> e.starts_at OR h.place <> ${placeOf(sql)})
      RETURNING h.event_id, h.saved_search_ids
    ), n AS (
      -- A match whose new notice is still to be made is told of as it is now, by that notice.
      INSERT INTO alert_notices (saved_search_id, event_id, kind)
      SELECT s.id, c.event_id, 'changed' FROM changed c
      CROSS JOIN unnest(c.saved_search_ids) AS t (id)
      JOIN saved_searches s ON s.id = t.id
      WHERE NOT s.paused AND NOT EXISTS (
        SELECT 1 FROM alert_pending_new p
        WHERE p.event_id = c.event_id AND p.saved_search_id = s.id)
      RETURNING id, saved_search_id
    ), d AS (${deliveriesOfNotices(sql)} RETURNING notice_id)
    SELECT count(*)::int AS n FROM n`;
  return rows[0].n;
}

/**
 * In the transaction that deleted `eventIds`: notices of their removal to every search that told
 * of them, with what each event was (it is gone by delivery).
 */
export async function decideRemovals(sql: Sql, eventIds: string[]): Promise<number> {
  if (eventIds.length === 0) return 0;
  const rows = await sql`
    WITH gone AS (
      DELETE FROM alert_hits WHERE event_id = ANY(${eventIds}::uuid[])
      RETURNING event_id, saved_search_ids, title, source_url, starts_at
    ), untold AS (
      DELETE FROM alert_pending_new WHERE event_id = ANY(${eventIds}::uuid[])
      RETURNING event_id, saved_search_id
    ), reminded AS (
      DELETE FROM alert_cfp_reminded WHERE event_id = ANY(${eventIds}::uuid[])
    ), n AS (
      -- A match whose new notice was still to be made was never told of: nor is its removal.
      INSERT INTO alert_notices (saved_search_id, event_id, kind, event)
      SELECT s.id, g.event_id, 'removed',
        jsonb_build_object('id', g.event_id, 'title', g.title, 'source_url', g.source_url,
          'starts_at', to_char(g.starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
      FROM gone g CROSS JOIN unnest(g.saved_search_ids) AS t (id)
      JOIN saved_searches s ON s.id = t.id
      WHERE NOT s.paused AND NOT EXISTS (
        SELECT 1 FROM untold u WHERE u.event_id = g.event_id AND u.saved_search_id = s.id)
      RETURNING id, saved_search_id
    ), d AS (${deliveriesOfNotices(sql)} RETURNING notice_id)
    SELECT count(*)::int AS n FROM n`;
  return rows[0].n;
}

/** A test notice for one saved search (the site's and API's "test delivery"); its id. */
export async function addTestNotice(sql: Sql, savedSearchId: string): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    WITH n AS (
      INSERT INTO alert_notices (saved_search_id, event_id, kind)
      VALUES (${savedSearchId}, gen_random_uuid(), 'test')
      RETURNING id, saved_search_id
    ), d AS (${deliveriesOfNotices(sql)} RETURNING notice_id)
    SELECT id FROM n`;
  return row.id;
}
