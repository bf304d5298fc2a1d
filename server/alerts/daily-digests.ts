/** Sends the daily digests that are due (server/db/alert-digests.ts), one mail per search. */
import type { Sql } from "postgres";
import { claimDueDigests, digestNotices, releaseDigest } from "../db/alert-digests.ts";
import { alertMail } from "./email-delivery.ts";
import type { Mailer } from "./mailer.ts";
import { type NoticeMessage, noticeMessage } from "./webhook-delivery.ts";

/** Notices told of in one digest at most; the rest wait for the next one. */
const MAX_NOTICES = 100;

/** Sends what is due; how many digests went out. */
export async function sendDueDigests(
  sql: Sql,
  o: { mailer: Mailer; periodMs: number; publicUrl?: string },
): Promise<number> {
  const due = await claimDueDigests(sql, { limit: 16, periodMs: o.periodMs });
  let sent = 0;
  for (const digest of due) {
    const notices = await digestNotices(sql, digest, MAX_NOTICES);
    const messages: NoticeMessage[] = [];
    for (const n of notices) {
      const message = await noticeMessage(sql, {
        kind: n.kind,
        event: n.event,
        event_id: n.event_id,
        notice_created_at: n.created_at,
        saved_search_id: digest.saved_search_id,
        saved_search_name: digest.saved_search_name,
      });
      if (message !== null) messages.push(message);
    }
    if (messages.length === 0) continue;
    try {
      await o.mailer.send(alertMail({
        to: digest.verified_email,
        searchName: digest.saved_search_name,
        messages,
        base: o.publicUrl ?? digest.link_base,
        unsubscribeToken: digest.unsubscribe_token,
      }));
      sent++;
    } catch (err) {
      await releaseDigest(sql, digest);
      throw err;
    }
  }
  return sent;
}
