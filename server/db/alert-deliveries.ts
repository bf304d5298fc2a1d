/**
 * Deliveries of notices, claimed the way the embedding worker claims events: a short transaction
 * takes due rows with FOR UPDATE SKIP LOCKED and moves their `due_at` past a lease, so workers on
 * several servers get disjoint rows, and a worker that dies before it records an outcome leaves
 * its rows due again when the lease ends (at least once; receivers drop repeats by notice id).
 */
import type { Sql } from "postgres";

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  notice_id: string;
  channel: "webhook" | "email";
  /** Counting this one. */
  attempts: number;
  first_attempt_at: Date;
  kind: "new" | "changed" | "removed" | "test" | "cfp_closing";
  event_id: string;
  /** What a removed event was. */
  event: Record<string, unknown> | null;
  notice_created_at: Date;
  saved_search_id: string;
  saved_search_name: string;
  webhook_url: string | null;
  webhook_secret: string | null;
  webhook_disabled_at: Date | null;
  email_mode: "instant" | "daily" | "off";
  paused: boolean;
  feed_token: string;
  unsubscribe_token: string;
  /** The origin the search was saved from: links' base when PUBLIC_URL is unset. */
  link_base: string;
  /** The owner's account address, when it is confirmed. */
  verified_email: string | null;
}

/** Claims up to `limit` due deliveries for `leaseMs`. */
export async function claimDeliveries(
  sql: Sql,
  o: { limit: number; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  return await sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    return await tx<ClaimedDelivery[]>`
      WITH due AS (
        SELECT notice_id, channel FROM alert_deliveries
        WHERE status = 'pending' AND due_at <= now()
        ORDER BY due_at LIMIT ${o.limit}
        FOR UPDATE SKIP LOCKED
      ), claimed AS (
        UPDATE alert_deliveries d SET
          due_at = now() + ${o.leaseMs} * interval '1 millisecond',
          attempts = d.attempts + 1,
          first_attempt_at = coalesce(d.first_attempt_at, now()),
          last_attempt_at = now()
        FROM due WHERE d.notice_id = due.notice_id AND d.channel = due.channel
        RETURNING d.notice_id, d.channel, d.attempts, d.first_attempt_at
      )
      SELECT c.*, n.kind, n.event_id, n.event, n.created_at AS notice_created_at,
        s.id AS saved_search_id, s.name AS saved_search_name, s.webhook_url, s.webhook_secret,
        s.webhook_disabled_at, s.email AS email_mode, s.paused, s.feed_token,
        s.unsubscribe_token, s.link_base,
        (SELECT a.email FROM accounts a
         WHERE a.contributor_id = s.contributor_id AND a.email_verified_at IS NOT NULL)
          AS verified_email
      FROM claimed c
      JOIN alert_notices n ON n.id = c.notice_id
      JOIN saved_searches s ON s.id = n.saved_search_id`;
  }) as ClaimedDelivery[];
}

/** What became of a delivery attempt. */
export type DeliveryOutcome =
  | { status: "delivered"; result: string }
  | { status: "retry"; result: string; afterMs: number }
  | { status: "failed" | "dropped"; result: string };

/** Records an attempt's outcome; a retry is due again after `afterMs`. */
export async function recordDelivery(
  sql: Sql,
  delivery: { notice_id: string; channel: string },
  outcome: DeliveryOutcome,
): Promise<void> {
  const status = outcome.status === "retry" ? "pending" : outcome.status;
  const afterMs = outcome.status === "retry" ? outcome.afterMs : 0;
  await sql`
    UPDATE alert_deliveries SET status = ${status}, last_result = ${outcome.result.slice(0, 500)},
      due_at = now() + ${afterMs} * interval '1 millisecond'
    WHERE notice_id = ${delivery.notice_id} AND channel = ${delivery.channel}`;
}

/**
 * Disables a saved search's webhook after its retries ran out: its pending webhook deliveries
 * are dropped, and no new ones are made until the owner saves a webhook URL again.
 */
export async function disableWebhook(sql: Sql, savedSearchId: string): Promise<void> {
  await sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    await tx`
      UPDATE saved_searches SET webhook_disabled_at = now()
      WHERE id = ${savedSearchId} AND webhook_disabled_at IS NULL`;
    await tx`
      UPDATE alert_deliveries d SET status = 'dropped', last_result = 'webhook disabled'
      FROM alert_notices n
      WHERE n.id = d.notice_id AND n.saved_search_id = ${savedSearchId}
        AND d.channel = 'webhook' AND d.status = 'pending'`;
  });
}

/** A saved search's latest deliveries, newest first. */
export interface RecentDelivery {
  notice_id: string;
  kind: string;
  event_id: string;
  channel: string;
  status: string;
  attempts: number;
  last_attempt_at: Date | null;
  last_result: string | null;
  created_at: Date;
}

/** The latest `limit` deliveries of a saved search. */
export async function recentDeliveries(
  sql: Sql,
  savedSearchId: string,
  limit: number,
): Promise<RecentDelivery[]> {
  return await sql<RecentDelivery[]>`
    SELECT n.id AS notice_id, n.kind, n.event_id, d.channel, d.status, d.attempts,
      d.last_attempt_at, d.last_result, n.created_at
    FROM alert_notices n JOIN alert_deliveries d ON d.notice_id = n.id
    WHERE n.saved_search_id = ${savedSearchId}
    ORDER BY n.created_at DESC, n.id, d.channel
    LIMIT ${limit}`;
}
