/**
 * What a published event says, as plain JSON kept with its object (server/db/federation-objects):
 * made once from the shown listing, compared by hash to tell a material change, and turned into
 * an ActivityStreams Event (event-object.ts) with the links of the origin it is served from.
 */
import type { StoredEvent } from "../../shared/api-schemas.ts";
import { displayZone, localIso } from "../events/local-times.ts";

/** An event as federation publishes it. */
export interface EventSnapshot {
  eventId: string;
  name: string;
  summary: string;
  content: string | null;
  startTime: string;
  endTime: string | null;
  timezone: string | null;
  place: {
    name: string | null;
    address: string | null;
    latitude: number | null;
    longitude: number | null;
  } | null;
  online: boolean;
  sourceUrl: string;
  /** Hashtags: each topic's and tag's name with the topic actor's handle when it has one. */
  hashtags: { name: string; handle: string | null }[];
  cfpClosesAt: string | null;
}

const MAX_HASHTAGS = 20;

/** "Thursday 14 January 2027, 19:00 (Europe/Berlin)": the start as its own clock shows it. */
export function localDate(startsAt: string, timezone: string | null): string {
  const zone = displayZone(timezone);
  const wall = localIso(startsAt, zone);
  const day = new Date(`${wall.slice(0, 10)}T12:00:00Z`).toLocaleDateString("en-GB", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  return `${day}, ${wall.slice(11, 16)} (${zone})`;
}

/** The one-paragraph summary: local date, place, and the CFP deadline when there is one. */
function summaryOf(event: StoredEvent, cfpClosesAt: string | null): string {
  const parts = [localDate(event.starts_at, event.timezone)];
  const place = [event.city, event.country].filter(Boolean).join(", ");
  if (place) parts.push(event.is_virtual ? `${place} and online` : place);
  else if (event.is_virtual) parts.push("Online");
  // The instant in UTC, not its date alone: a deadline Anywhere on Earth ends at 11:59:59 UTC on
  // the next day, so a date cut from it would name the wrong day.
  if (cfpClosesAt) {
    parts.push(
      `Call for papers closes ${cfpClosesAt.slice(0, 10)} ${cfpClosesAt.slice(11, 16)} UTC`,
    );
  }
  return parts.join(" · ");
}

/** The snapshot of a listing; `topicHandles` maps a topic to its actor's handle. */
export function snapshotOf(
  event: StoredEvent,
  topicHandles: Map<string, string>,
): EventSnapshot {
  const cfpClosesAt = event.cfp_closes_at ?? null;
  const hasPlace = event.venue_name || event.city || event.latitude !== null;
  const seen = new Set<string>();
  const hashtags: EventSnapshot["hashtags"] = [];
  for (const name of [...event.topics, ...event.tags]) {
    const key = name.toLowerCase();
    if (seen.has(key) || hashtags.length >= MAX_HASHTAGS) continue;
    seen.add(key);
    hashtags.push({ name, handle: topicHandles.get(name) ?? null });
  }
  return {
    eventId: event.id,
    name: event.title,
    summary: summaryOf(event, cfpClosesAt),
    content: event.description ?? null,
    startTime: event.starts_at,
    endTime: event.ends_at,
    timezone: event.timezone,
    place: hasPlace
      ? {
        name: event.venue_name ?? event.city ?? null,
        address: [event.venue_name, event.city, event.country].filter(Boolean).join(", ") ||
          null,
        latitude: event.latitude ?? null,
        longitude: event.longitude ?? null,
      }
      : null,
    online: event.is_virtual,
    sourceUrl: event.source_url,
    hashtags,
    cfpClosesAt,
  };
}

/** A stable digest of a snapshot: equal digests, nothing to update. */
export async function snapshotHash(snapshot: EventSnapshot): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(snapshot));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
