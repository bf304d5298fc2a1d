/**
 * Confirming an account's address: a link with a random token is mailed to it, and following the
 * link confirms it. Alert mails go only to a confirmed address, so nobody can subscribe someone
 * else. Without SMTP_URL no link can be sent, and no address is confirmed.
 */
import type { AppDeps } from "../app-env.ts";
import { addEmailConfirmation, useEmailConfirmation } from "../db/email-confirmations.ts";
import { randomToken } from "./cookies.ts";

/** How long a mailed link works. */
const LINK_HOURS = 48;

async function digestOf(token: string): Promise<Uint8Array> {
  return new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)),
  );
}

/** Mails a confirmation link to the account's address; false when mail is not set up. */
export async function sendConfirmationLink(
  deps: Pick<AppDeps, "db" | "config" | "alerts">,
  o: { accountId: string; email: string; origin: string },
): Promise<boolean> {
  const mailer = deps.alerts.mailer;
  if (mailer === null) return false;
  const token = randomToken();
  await addEmailConfirmation(deps.db.sql, {
    digest: await digestOf(token),
    accountId: o.accountId,
    email: o.email,
    expiresAt: new Date(Date.now() + LINK_HOURS * 3_600_000),
  });
  const link = `${deps.config.publicUrl ?? o.origin}/account/confirm-email?token=${token}`;
  const text = `Follow this link to confirm ${o.email} for alert mails: ${link}\n\n` +
    `It works for ${LINK_HOURS} hours. If you did not sign up, ignore this mail.`;
  await mailer.send({
    to: o.email,
    subject: "Confirm your address for alert mails",
    text,
    html: `<p>Follow this link to confirm ${o.email} for alert mails: ` +
      `<a href="${link}">confirm my address</a>.</p><p>It works for ${LINK_HOURS} hours. If ` +
      "you did not sign up, ignore this mail.</p>",
  });
  return true;
}

/** Confirms the address a link's token was sent to; the address, or null for a bad link. */
export async function confirmEmail(
  deps: Pick<AppDeps, "db">,
  token: string,
): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  return await useEmailConfirmation(deps.db.sql, await digestOf(token));
}
