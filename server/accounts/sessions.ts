/**
 * Sign-in sessions: a random token in a cookie, its SHA-256 digest in the database. A session
 * ends after two idle hours or twelve hours in all, or at once when its owner signs out.
 */
import type { Context } from "hono";
import type { Sql } from "postgres";
import {
  deleteDeadSessions,
  deleteSession,
  findLiveSession,
  insertSession,
  type SessionRecord,
} from "../db/sessions.ts";
import { clearCookie, randomToken, readCookie, writeCookie } from "./cookies.ts";

export const SESSION_IDLE_SECONDS = 2 * 60 * 60;
export const SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60;

async function digestOf(token: string): Promise<Uint8Array> {
  return new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)),
  );
}

/**
 * Starts a session for the account and hands its cookie to the browser; a session the browser
 * held before ends (a fresh token at every sign-in: no session fixation).
 */
export async function startSession(c: Context, sql: Sql, accountId: string): Promise<void> {
  const previous = readCookie(c, "session");
  if (previous) await deleteSession(sql, await digestOf(previous));
  const token = randomToken();
  await deleteDeadSessions(sql, accountId, SESSION_IDLE_SECONDS);
  await insertSession(sql, {
    tokenDigest: await digestOf(token),
    accountId,
    csrfToken: randomToken(),
    absoluteSeconds: SESSION_ABSOLUTE_SECONDS,
  });
  writeCookie(c, "session", token, SESSION_ABSOLUTE_SECONDS);
}

/** The request's live session, or null (no cookie, unknown, idle too long or too old). */
export async function currentSession(c: Context, sql: Sql): Promise<SessionRecord | null> {
  const token = readCookie(c, "session");
  // Our tokens are 43 characters; anything else cannot be one and needs no query.
  if (!token || token.length !== 43) return null;
  return await findLiveSession(sql, await digestOf(token), SESSION_IDLE_SECONDS);
}

/** Ends the request's session on the server and removes its cookie. */
export async function endSession(c: Context, sql: Sql): Promise<void> {
  const token = readCookie(c, "session");
  if (token) await deleteSession(sql, await digestOf(token));
  clearCookie(c, "session");
}
