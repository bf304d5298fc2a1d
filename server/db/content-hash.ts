/** A stable digest of an event's submitted content, to tell a real change from a re-send. */
import { EVENT_FIELDS, type EventRecord } from "../../shared/event-schema.ts";

/** SHA-256 (hex) over the normalised fields, in the schema's fixed field order. */
export async function contentHash(event: EventRecord): Promise<string> {
  const canonical = JSON.stringify(EVENT_FIELDS.map((field) => event[field]));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
