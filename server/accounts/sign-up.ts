/** Signing up: a new account with its own contributor, and its first session. */
import type { Sql } from "postgres";
import { type AccountRecord, createAccount } from "../db/accounts.ts";
import { consumeRateLimit } from "../db/rate-limit.ts";
import { hashPassword } from "./password-hash.ts";

/** Sign-ups one client address may make per hour. */
export const SIGN_UPS_PER_CLIENT_PER_HOUR = 10;

export type SignUpResult =
  | { ok: true; account: AccountRecord }
  | { ok: false; problem: string };

/** Creates the account, or says why not. */
export async function signUp(
  sql: Sql,
  request: { email: string; password: string; clientAddress: string },
): Promise<SignUpResult> {
  const limit = await consumeRateLimit(
    sql,
    `sign-up:${request.clientAddress}`,
    SIGN_UPS_PER_CLIENT_PER_HOUR,
    3600,
  );
  if (!limit.allowed) {
    const minutes = Math.ceil(limit.retryAfterSeconds / 60);
    return {
      ok: false,
      problem: `Too many sign-ups from your network. Try again in ${minutes} minutes.`,
    };
  }
  // Hashed before the address is checked, so a taken address answers no faster.
  const passwordHash = await hashPassword(request.password);
  const account = await createAccount(sql, { email: request.email, passwordHash });
  if (!account) {
    return { ok: false, problem: "This address has an account already: sign in instead." };
  }
  return { ok: true, account };
}
