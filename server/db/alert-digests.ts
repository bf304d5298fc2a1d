/**
 * Daily digests: a saved search with `email = 'daily'` gets one mail per period with the notices
 * decided since its last one. Claimed like deliveries (FOR UPDATE SKIP LOCKED), by moving
 * `digest_sent_at` to now; a digest that cannot be sent moves it back, to be tried again.
 */
import type { Sql } from "postgres";

/** A digest due: its search and the notices since the last one. */
export interface DueDigest {
  saved_search_id: string;
  saved_search_name: string;
  unsubscribe_token: string;
  link_base: string;
  verified_email: string;
  /** The previous digest_sent_at, put back should sending fail. */
  previous: Date | null;
  since: Date;
  until: Date;
}

/** Claims up to `limit` searches whose digest is due (a period since the last, news since). */
export async function claimDueDigests(
  sql: Sql,
  o: { limit: number; periodMs: number },
): Promise<DueDigest[]> {
  return await sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    return await tx<DueDigest[]>`
      WITH due AS (
        SELECT s.id, s.digest_sent_at AS previous,
          coalesce(s.digest_sent_at, s.created_at) AS since
        FROM saved_searches s
        WHERE s.email = 'daily' AND NOT s.paused
          AND coalesce(s.digest_sent_at, s.created_at)
            <= now() - ${o.periodMs} * interval '1 millisecond'
          AND EXISTS (
            SELECT 1 FROM alert_notices n
            WHERE n.saved_search_id = s.id AND n.kind <> 'test'
              AND n.created_at > coalesce(s.digest_sent_at, s.created_at))
        LIMIT ${o.limit}
        FOR UPDATE OF s SKIP LOCKED
      ), claimed AS (
        UPDATE saved_searches s SET digest_sent_at = now()
        FROM due WHERE s.id = due.id
        RETURNING s.id, s.name, s.unsubscribe_token, s.link_base, s.contributor_id,
          due.previous, due.since, s.digest_sent_at AS until
      )
      SELECT c.id AS saved_search_id, c.name AS saved_search_name, c.unsubscribe_token,
        c.link_base, a.email AS verified_email, c.previous, c.since, c.until
      FROM claimed c
      JOIN accounts a ON a.contributor_id = c.contributor_id AND a.email_verified_at IS NOT NULL`;
  }) as DueDigest[];
}

/** A notice of a digest. */
export interface DigestNotice {
  id: string;
  kind: "new" | "changed" | "removed" | "cfp_closing";
  event_id: string;
  event: Record<string, unknown> | null;
  created_at: Date;
}

/** The notices a digest tells of, oldest first, at most `limit`. */
export async function digestNotices(
  sql: Sql,
  digest: DueDigest,
  limit: number,
): Promise<DigestNotice[]> {
  return await sql<DigestNotice[]>`
    SELECT id, kind, event_id, event, created_at FROM alert_notices
    WHERE saved_search_id = ${digest.saved_search_id} AND kind <> 'test'
      AND created_at > ${digest.since} AND created_at <= ${digest.until}
    ORDER BY created_at, id
    LIMIT ${limit}`;
}

/** Puts a digest back as it was, after it could not be sent. */
export async function releaseDigest(sql: Sql, digest: DueDigest): Promise<void> {
  await sql`
    UPDATE saved_searches SET digest_sent_at = ${digest.previous}
    WHERE id = ${digest.saved_search_id} AND digest_sent_at = ${digest.until}`;
}
