/** Site accounts: each is one contributor, signing in with an address and a password. */
import type { Sql } from "postgres";

/** An account as the server needs it; never leaves the server with its hash. */
export interface AccountRecord {
  id: string;
  email: string;
  password_hash: string;
  contributor_id: string;
  contributor_name: string;
  operator_confirmed_at: Date | null;
  /** When an operator cleaned the contributor up; such an account may not sign in. */
  blocked_at: Date | null;
}

const UNIQUE_VIOLATION = "23505";

function accountColumns(sql: Sql) {
  return sql`a.id, a.email, a.password_hash, a.contributor_id, c.name AS contributor_name,
    a.operator_confirmed_at, c.blocked_at`;
}

/**
 * Creates an account and its own new contributor, named after the address (with a suffix should
 * an operator-made contributor already bear that name: an account never takes over another
 * contributor's keys). Returns null when the address already has an account.
 */
export async function createAccount(
  sql: Sql,
  account: { email: string; passwordHash: string },
): Promise<AccountRecord | null> {
  try {
    return await sql.begin(async (transaction) => {
      const tx = transaction as unknown as Sql;
      const [contributor] = await tx<{ id: string }[]>`
        INSERT INTO contributors (name)
        SELECT name FROM (VALUES (1, ${account.email}),
          (2, ${`${account.email} (${crypto.randomUUID().slice(0, 8)})`})) AS candidate (rank, name)
        WHERE NOT EXISTS (SELECT 1 FROM contributors c WHERE c.name = candidate.name)
        ORDER BY rank LIMIT 1
        RETURNING id`;
      const [row] = await tx<AccountRecord[]>`
        WITH inserted AS (
          INSERT INTO accounts (email, password_hash, contributor_id)
          VALUES (${account.email}, ${account.passwordHash}, ${contributor.id})
          RETURNING *
        )
        SELECT ${
        accountColumns(tx)
      } FROM inserted a JOIN contributors c ON c.id = a.contributor_id`;
      return row;
    });
  } catch (err) {
    if ((err as { code?: string }).code === UNIQUE_VIOLATION) return null;
    throw err;
  }
}

/** The account of an address (already lower-cased), or null. */
export async function findAccountByEmail(sql: Sql, email: string): Promise<AccountRecord | null> {
  const [row] = await sql<AccountRecord[]>`
    SELECT ${accountColumns(sql)} FROM accounts a JOIN contributors c ON c.id = a.contributor_id
    WHERE a.email = ${email}`;
  return row ?? null;
}

/** Replaces an account's password hash (after a sign-in with outdated parameters). */
export async function updatePasswordHash(sql: Sql, accountId: string, hash: string): Promise<void> {
  await sql`UPDATE accounts SET password_hash = ${hash} WHERE id = ${accountId}`;
}

/** Records that the account proved it holds the operator key. */
export async function confirmOperator(sql: Sql, accountId: string): Promise<void> {
  await sql`
    UPDATE accounts SET operator_confirmed_at = coalesce(operator_confirmed_at, now())
    WHERE id = ${accountId}`;
}

/** The address of the contributor's account and whether it is confirmed; null without one. */
export async function accountAddressOf(
  sql: Sql,
  contributorId: string,
): Promise<{ email: string; verified: boolean } | null> {
  const [row] = await sql<{ email: string; verified: boolean }[]>`
    SELECT email, email_verified_at IS NOT NULL AS verified FROM accounts
    WHERE contributor_id = ${contributorId}`;
  return row ?? null;
}
