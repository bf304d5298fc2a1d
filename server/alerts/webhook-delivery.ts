/**
 * One webhook delivery: the notice as JSON, signed per Standard Webhooks with the notice's id as
 * `webhook-id` (the same on every retry), posted to an address resolved and checked again now.
 * A 2xx answer delivers it; anything else is retried on the schedule, and once the schedule is
 * spent the search's webhook is disabled.
 */
import type { Sql } from "postgres";
import type { ClaimedDelivery, DeliveryOutcome } from "../db/alert-deliveries.ts";
import { getEventById } from "../db/event-reads.ts";
import type { StoredEvent } from "../../shared/api-schemas.ts";
import { resolveWebhookHost } from "./webhook-address.ts";
import { signedHeaders } from "./webhook-signing.ts";
import { postPinned } from "./pinned-post.ts";

/** The JSON body of a notice, as webhooks carry it (and docs/alerts.md shows). */
export interface NoticeMessage {
  type: "event.new" | "event.changed" | "event.removed" | "event.cfp_closing" | "alert.test";
  timestamp: string;
  data: {
    saved_search: { id: string; name: string };
    /** The event as the API returns it; what it was, when removed; null in a test. */
    event: StoredEvent | Record<string, unknown> | null;
  };
}

const TYPES = {
  new: "event.new",
  changed: "event.changed",
  removed: "event.removed",
  cfp_closing: "event.cfp_closing",
  test: "alert.test",
} as const;

/**
 * The message of a claimed notice, or null when its event is gone (a removal notice follows, or
 * went first).
 */
export async function noticeMessage(
  sql: Sql,
  d: Pick<
    ClaimedDelivery,
    "kind" | "event" | "event_id" | "notice_created_at" | "saved_search_id" | "saved_search_name"
  >,
): Promise<NoticeMessage | null> {
  let event: NoticeMessage["data"]["event"] = null;
  if (d.kind === "removed") event = d.event;
  else if (d.kind !== "test") {
    event = await getEventById(sql, d.event_id);
    if (event === null) return null;
  }
  return {
    type: TYPES[d.kind],
    timestamp: d.notice_created_at.toISOString(),
    data: { saved_search: { id: d.saved_search_id, name: d.saved_search_name }, event },
  };
}

/** How webhooks are sent. */
export interface WebhookSettings {
  allowPrivate: boolean;
  /** Seconds to wait after each failed attempt; once spent, the webhook is disabled. */
  retrySeconds: number[];
}

/** Sends one claimed webhook delivery; the outcome to record. */
export async function deliverWebhook(
  d: ClaimedDelivery,
  o: { message: NoticeMessage; settings: WebhookSettings },
): Promise<DeliveryOutcome> {
  if (d.webhook_url === null || d.webhook_secret === null || d.webhook_disabled_at !== null) {
    return { status: "dropped", result: "the saved search has no enabled webhook now" };
  }
  const body = JSON.stringify(o.message);
  let result: string;
  try {
    const url = new URL(d.webhook_url);
    const [address] = await resolveWebhookHost(url, { allowPrivate: o.settings.allowPrivate });
    const headers = await signedHeaders(d.webhook_secret, {
      id: `msg_${d.notice_id}`,
      timestamp: new Date(),
      body,
    });
    const status = await postPinned(url, { address, headers, body });
    if (status >= 200 && status < 300) return { status: "delivered", result: `HTTP ${status}` };
    result = `HTTP ${status}`;
  } catch (err) {
    result = (err as Error).message;
  }
  const wait = o.settings.retrySeconds[d.attempts - 1];
  if (wait === undefined) return { status: "failed", result };
  return { status: "retry", result, afterMs: wait * 1000 };
}
