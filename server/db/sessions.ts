/** Sign-in sessions of the site, found by the SHA-256 digest of the cookie's token. */
import type { Sql } from "postgres";

/** A live session and the account behind it. */
export interface SessionRecord {
  account_id: string;
  email: string;
  contributor_id: string;
  contributor_name: string;
  operator_confirmed_at: Date | null;
  csrf_token: string;
}

/** Stores a new session that ends, whatever happens, `absoluteSeconds` from now. */
export async function insertSession(
  sql: Sql,
  session: {
    tokenDigest: Uint8Array;
    accountId: string;
    csrfToken: string;
    absoluteSeconds: number;
  },
): Promise<void> {
  await sql`
    INSERT INTO sessions (token_digest, account_id, csrf_token, expires_at)
    VALUES (${session.tokenDigest}, ${session.accountId}, ${session.csrfToken},
            now() + make_interval(secs => ${session.absoluteSeconds}))`;
}

/**
 * The session, if neither its absolute end nor its idle end has passed; marks it as seen (at most
 * once a minute, so a busy visitor does not rewrite the row on every page).
 */
export async function findLiveSession(
  sql: Sql,
  tokenDigest: Uint8Array,
  idleSeconds: number,
): Promise<SessionRecord | null> {
  const [row] = await sql<SessionRecord[]>`
    WITH live AS (
      SELECT * FROM sessions
      WHERE token_digest = ${tokenDigest} AND expires_at > now()
        AND last_seen_at > now() - make_interval(secs => ${idleSeconds})
    ), touched AS (
      UPDATE sessions s SET last_seen_at = now()
      FROM live WHERE s.token_digest = live.token_digest
        AND live.last_seen_at < now() - interval '1 minute'
    )
    SELECT live.account_id, a.email, a.contributor_id, c.name AS contributor_name,
           a.operator_confirmed_at, live.csrf_token
    FROM live JOIN accounts a ON a.id = live.account_id
    JOIN contributors c ON c.id = a.contributor_id
    -- A cleaned-up account's sessions are deleted with it; this covers one started meanwhile.
    WHERE c.blocked_at IS NULL`;
  return row ?? null;
}

/** Ends a session. */
export async function deleteSession(sql: Sql, tokenDigest: Uint8Array): Promise<void> {
  await sql`DELETE FROM sessions WHERE token_digest = ${tokenDigest}`;
}

/** Deletes an account's sessions that can no longer be used. */
export async function deleteDeadSessions(
  sql: Sql,
  accountId: string,
  idleSeconds: number,
): Promise<void> {
  await sql`
    DELETE FROM sessions WHERE account_id = ${accountId}
      AND (expires_at <= now() OR last_seen_at <= now() - make_interval(secs => ${idleSeconds}))`;
}
