/**
 * Alert mails: one per notice (instant) or one per day (digest), plain text and HTML, only to the
 * account's confirmed address, each with a one-click unsubscribe (RFC 8058: `List-Unsubscribe`
 * with an https link, and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`, which a mail
 * provider POSTs to without cookies). Links are absolute: PUBLIC_URL, else the origin the search
 * was saved from.
 */
import type { ClaimedDelivery, DeliveryOutcome } from "../db/alert-deliveries.ts";
import type { Mail, Mailer } from "./mailer.ts";
import type { NoticeMessage } from "./webhook-delivery.ts";

const HEADINGS: Record<NoticeMessage["type"], string> = {
  "event.new": "New event",
  "event.changed": "Changed",
  "event.removed": "Removed",
  "event.cfp_closing": "CFP closing",
  "alert.test": "Test",
};

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** One notice as a line of text and an HTML list item. */
function noticeLines(message: NoticeMessage, base: string): { text: string; html: string } {
  const heading = HEADINGS[message.type];
  const event = message.data.event as Record<string, unknown> | null;
  if (event === null) {
    const text = `${heading}: alert mails reach you.`;
    return { text, html: `<li>${escapeHtml(text)}</li>` };
  }
  const title = String(event.title);
  const when = String(event.starts_at).slice(0, 16).replace("T", " ") + " UTC";
  const place = [event.city, event.country].filter(Boolean).join(", ") ||
    (event.is_virtual ? "Online" : "");
  const url = message.type === "event.removed"
    ? String(event.source_url)
    : `${base}/events/${event.id}`;
  const facts = [when, place].filter(Boolean).join(" · ");
  if (message.type === "event.cfp_closing") return cfpClosingLines(message, { event, url });
  return {
    text: `${heading}: ${title}\n  ${facts}\n  ${url}`,
    html: `<li><strong>${escapeHtml(heading)}:</strong> <a href="${escapeHtml(url)}">` +
      `${escapeHtml(title)}</a><br>${escapeHtml(facts)}</li>`,
  };
}

/** "The CFP of X closes in 3 days", with where proposals go and the event's page. */
function cfpClosingLines(
  message: NoticeMessage,
  o: { event: Record<string, unknown>; url: string },
): { text: string; html: string } {
  const line = cfpClosingLine(message);
  const submit = String(o.event.cfp_url ?? o.url);
  return {
    text: `${line}\n  Submit: ${submit}\n  ${o.url}`,
    html: `<li><strong>${escapeHtml(line)}</strong><br>Submit: <a href="${escapeHtml(submit)}">` +
      `${escapeHtml(submit)}</a><br><a href="${escapeHtml(o.url)}">${escapeHtml(o.url)}</a></li>`,
  };
}

/** "The CFP of X closes in N days" (within a day, when less), counted from the notice. */
export function cfpClosingLine(message: NoticeMessage): string {
  const event = message.data.event as Record<string, unknown>;
  const closes = Date.parse(String(event.cfp_closes_at));
  const days = Math.ceil((closes - Date.parse(message.timestamp)) / 86_400_000);
  // A CFP whose deadline was removed since the notice: no count to give.
  const when = !Number.isFinite(days) ? "soon" : days <= 1 ? "within a day" : `in ${days} days`;
  return `The CFP of ${String(event.title)} closes ${when}`;
}

/** The mail telling `to` of `messages` for one saved search. */
export function alertMail(
  o: {
    to: string;
    searchName: string;
    messages: NoticeMessage[];
    base: string;
    unsubscribeToken: string;
  },
): Mail {
  const unsubscribe = `${o.base}/alerts/unsubscribe/${o.unsubscribeToken}`;
  const lines = o.messages.map((m) => noticeLines(m, o.base));
  const subject = o.messages.length === 1 && o.messages[0].type === "event.cfp_closing"
    ? `${cfpClosingLine(o.messages[0])} (${o.searchName})`
    : o.messages.length === 1
    ? `${HEADINGS[o.messages[0].type]}: ${
      String((o.messages[0].data.event as { title?: string } | null)?.title ?? o.searchName)
    } (${o.searchName})`
    : `${o.messages.length} updates for “${o.searchName}”`;
  return {
    to: o.to,
    subject,
    text: [
      `Your saved search “${o.searchName}”:`,
      "",
      ...lines.map((l) => l.text),
      "",
      `Your alerts: ${o.base}/alerts`,
      `Stop these mails: ${unsubscribe}`,
    ].join("\n"),
    html: `<p>Your saved search “${escapeHtml(o.searchName)}”:</p><ul>` +
      lines.map((l) => l.html).join("") +
      `</ul><p><a href="${escapeHtml(`${o.base}/alerts`)}">Your alerts</a> · ` +
      `<a href="${escapeHtml(unsubscribe)}">Stop these mails</a></p>`,
    headers: {
      "List-Unsubscribe": `<${unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

/** Sends one claimed instant-mail delivery; the outcome to record. */
export async function deliverEmail(
  d: ClaimedDelivery,
  o: { message: NoticeMessage; mailer: Mailer; publicUrl?: string; retrySeconds: number[] },
): Promise<DeliveryOutcome> {
  if (d.verified_email === null || d.email_mode !== "instant") {
    return { status: "dropped", result: "mail is off, or the address is not confirmed" };
  }
  try {
    await o.mailer.send(alertMail({
      to: d.verified_email,
      searchName: d.saved_search_name,
      messages: [o.message],
      base: o.publicUrl ?? d.link_base,
      unsubscribeToken: d.unsubscribe_token,
    }));
    return { status: "delivered", result: "sent" };
  } catch (err) {
    const result = (err as Error).message;
    const wait = o.retrySeconds[d.attempts - 1];
    return wait === undefined ? { status: "failed", result } : {
      status: "retry",
      result,
      afterMs: wait * 1000,
    };
  }
}
