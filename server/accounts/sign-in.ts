/**
 * Signing in: a password check that takes as long for unknown addresses as for known ones, and
 * throttling per account address and per client address. The answer never says which of the
 * address or the password was wrong.
 */
import type { Sql } from "postgres";
import { type AccountRecord, findAccountByEmail, updatePasswordHash } from "../db/accounts.ts";
import { clearFailures, countRecentFailures, recordFailure } from "../db/sign-in-failures.ts";
import { decoyHash, hashPassword, verifyPassword } from "./password-hash.ts";

/** Failures are counted over this window. */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
/** Failed sign-ins to one address within the window before it is refused. */
export const MAX_FAILURES_PER_ACCOUNT = 5;
/** Failed sign-ins from one client address within the window before it is refused. */
export const MAX_FAILURES_PER_CLIENT = 20;

export type SignInResult =
  | { ok: true; account: AccountRecord }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "blocked" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

/** Checks the credentials; on success the caller starts a session. */
export async function signIn(
  sql: Sql,
  attempt: { email: string; password: string; clientAddress: string },
): Promise<SignInResult> {
  const accountBucket = `account:${attempt.email}`;
  const buckets = [accountBucket, `client:${attempt.clientAddress}`];
  const counts = await countRecentFailures(sql, buckets, SIGN_IN_WINDOW_SECONDS);
  const blocked = counts.filter((count) =>
    count.failures >=
      (count.bucket === accountBucket ? MAX_FAILURES_PER_ACCOUNT : MAX_FAILURES_PER_CLIENT)
  );
  if (blocked.length > 0) {
    const wait = Math.max(...blocked.map((count) => count.clearsInSeconds));
    return { ok: false, reason: "throttled", retryAfterSeconds: Math.max(1, wait) };
  }
  const account = await findAccountByEmail(sql, attempt.email);
  const stored = account?.password_hash ?? await decoyHash();
  const { matches, needsRehash } = await verifyPassword(attempt.password, stored);
  if (!account || !matches) {
    await recordFailure(sql, buckets, SIGN_IN_WINDOW_SECONDS);
    return { ok: false, reason: "invalid" };
  }
  // Said only to whoever knows the password: the address alone reveals nothing.
  if (account.blocked_at !== null) return { ok: false, reason: "blocked" };
  await clearFailures(sql, accountBucket);
  if (needsRehash) await updatePasswordHash(sql, account.id, await hashPassword(attempt.password));
  return { ok: true, account };
}
