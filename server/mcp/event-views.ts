/**
 * Events as an assistant sees them: a compact entry for result lists (bounded in size, so a page
 * of 50 stays far below a model's tool-result budget) and the full event for get_event. Both
 * give the start in UTC and in the event's own zone, the way to attend, and our page's URL.
 */
import { z } from "zod";
import { CFP_STATUSES, StoredEvent } from "../../shared/api-schemas.ts";
import { displayZone, localIso } from "../events/local-times.ts";
import { ATTENDANCE, attendanceOf } from "../db/attendance.ts";

const LIMITS = { title: 200, place: 100, description: 280, topics: 5, sourceUrl: 500 };

const localTime = z.string().describe(
  "The same instant as wall-clock time in the event's zone, with its UTC offset " +
    "(2027-01-14T19:00:00+01:00); in UTC (+00:00) when the event has no zone.",
);

const attendance = z.enum(ATTENDANCE).describe(
  "How to attend: online, in_person, or hybrid (both).",
);

/** One entry of a result list. */
export const CompactEvent = z.object({
  id: z.string().describe("The event's id: pass it to get_event or find_similar_events."),
  title: z.string(),
  starts_at: z.string().describe("Start, UTC, ISO 8601."),
  starts_at_local: localTime,
  ends_at: z.string().nullable().describe("End, UTC, ISO 8601; null when unknown."),
  timezone: z.string().nullable().describe("The event's IANA time zone, such as Europe/Berlin."),
  venue: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  attendance,
  is_free: z.boolean(),
  price: z.string().nullable().describe(
    'Price as text ("free", "EUR 10", "USD 20-50"); null when not given.',
  ),
  topics: z.array(z.string()).describe(`At most ${LIMITS.topics} topics.`),
  description: z.string().nullable().describe(
    "The start of the description, cut at a sentence; get_event gives all of it.",
  ),
  source_url: z.string().nullable().describe(
    "The organiser's page for the event; null when too long to list (get_event has it).",
  ),
  page_url: z.string().describe("The event's page on this service."),
  in_ai_search: z.boolean().describe("Whether the event is in AI (semantic) search."),
  cfp_url: z.string().nullable().describe(
    "Where to submit a talk (the call for papers); null when the event has none.",
  ),
  cfp_opens_at: z.string().nullable().describe("When the CFP opens, UTC; null when not given."),
  cfp_closes_at: z.string().nullable().describe(
    "The CFP deadline, UTC (open through that second); null when none is given.",
  ),
  cfp_status: z.enum(CFP_STATUSES).nullable().describe(
    "The CFP now: open, not_yet_open or closed; null without a CFP.",
  ),
  score: z.number().nullable().describe(
    "Relevance of a ranked result (higher is better; compare only within one answer); null " +
      "in a listing.",
  ),
});
export type CompactEvent = z.infer<typeof CompactEvent>;

/** The whole event, as get_event answers it. */
export const FullEvent = StoredEvent.extend({
  starts_at_local: localTime,
  ends_at_local: localTime.nullable(),
  attendance,
  page_url: z.string().describe("The event's page on this service."),
});
export type FullEvent = z.infer<typeof FullEvent>;

/** Where the service's pages live, such as https://events.example.org. */
export interface Site {
  origin: string;
}

/** A list entry for `event`; `score` for ranked results. */
export function compactEvent(event: StoredEvent, site: Site, score?: number): CompactEvent {
  return {
    id: event.id,
    title: cut(event.title, LIMITS.title),
    starts_at: event.starts_at,
    starts_at_local: localIso(event.starts_at, displayZone(event.timezone)),
    ends_at: event.ends_at,
    timezone: event.timezone,
    venue: event.venue_name === null ? null : cut(event.venue_name, LIMITS.place),
    city: event.city === null ? null : cut(event.city, LIMITS.place),
    country: event.country === null ? null : cut(event.country, LIMITS.place),
    attendance: attendanceOf(event),
    is_free: event.is_free,
    price: priceText(event),
    topics: event.topics.slice(0, LIMITS.topics),
    description: event.description === null ? null : summary(event.description),
    source_url: event.source_url.length <= LIMITS.sourceUrl ? event.source_url : null,
    page_url: pageUrl(site, event.id),
    in_ai_search: event.in_ai_search,
    cfp_url: event.cfp_url !== null && event.cfp_url.length <= LIMITS.sourceUrl
      ? event.cfp_url
      : null,
    cfp_opens_at: event.cfp_opens_at,
    cfp_closes_at: event.cfp_closes_at,
    cfp_status: event.cfp_status,
    score: score === undefined ? null : Math.round(score * 10_000) / 10_000,
  };
}

/** The full event with its local times, attendance and page. */
export function fullEvent(event: StoredEvent, site: Site): FullEvent {
  return {
    ...event,
    starts_at_local: localIso(event.starts_at, displayZone(event.timezone)),
    ends_at_local: event.ends_at === null
      ? null
      : localIso(event.ends_at, displayZone(event.timezone)),
    attendance: attendanceOf(event),
    page_url: pageUrl(site, event.id),
  };
}

function pageUrl(site: Site, id: string): string {
  return `${site.origin}/events/${id}`;
}

function priceText(e: StoredEvent): string | null {
  if (e.is_free) return "free";
  const { price_min: min, price_max: max, currency } = e;
  if (min !== null && max !== null && min !== max) return `${currency} ${min}-${max}`;
  if (min !== null || max !== null) return `${currency} ${min ?? max}`;
  return null;
}

/** The description's opening: whole sentences up to the limit, else words and an ellipsis. */
export function summary(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= LIMITS.description) return flat;
  const head = flat.slice(0, LIMITS.description);
  const sentenceEnd = Math.max(
    head.lastIndexOf(". "),
    head.lastIndexOf("! "),
    head.lastIndexOf("? "),
  );
  // A first sentence shorter than this says too little: cut between words instead.
  if (sentenceEnd >= 60) return head.slice(0, sentenceEnd + 1);
  return cut(flat, LIMITS.description);
}

/** `text` within `max` characters, cut between words with an ellipsis when too long. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(" ");
  // Never split a surrogate pair: a lone half is not valid text.
  const end = space >= max / 2 ? space : head.length - (/[\uD800-\uDBFF]$/.test(head) ? 1 : 0);
  return `${head.slice(0, end)}…`;
}
