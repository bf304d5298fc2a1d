/** Links that confirm an account's address: only a digest of each token is stored. */
import type { Sql } from "postgres";

/** Stores a confirmation of `email` for the account, valid until `expiresAt`. */
export async function addEmailConfirmation(
  sql: Sql,
  row: { digest: Uint8Array; accountId: string; email: string; expiresAt: Date },
): Promise<void> {
  await sql`
    INSERT INTO email_confirmations (token_digest, account_id, email, expires_at)
    VALUES (${row.digest}, ${row.accountId}, ${row.email}, ${row.expiresAt})`;
}

/**
 * Uses the confirmation with `digest`: while it is valid and its account still has that address,
 * the address is confirmed. Returns the address confirmed, or null.
 */
export async function useEmailConfirmation(sql: Sql, digest: Uint8Array): Promise<string | null> {
  const [row] = await sql<{ email: string }[]>`
    WITH used AS (
      DELETE FROM email_confirmations WHERE token_digest = ${digest}
      RETURNING account_id, email, expires_at
    )
    UPDATE accounts a SET email_verified_at = coalesce(a.email_verified_at, now())
    FROM used
    WHERE a.id = used.account_id AND a.email = used.email AND used.expires_at > now()
    RETURNING a.email`;
  return row?.email ?? null;
}

/** Whether the account's address is confirmed. */
export async function isEmailConfirmed(sql: Sql, accountId: string): Promise<boolean> {
  const [row] = await sql<{ confirmed: boolean }[]>`
    SELECT email_verified_at IS NOT NULL AS confirmed FROM accounts WHERE id = ${accountId}`;
  return row?.confirmed ?? false;
}
