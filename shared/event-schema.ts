/**
 * The one definition of a contributor's Event, the batch envelope and the API's response bodies.
 * The server validates requests with it, the CLI validates files with it before sending, and the
 * OpenAPI document is generated from it.
 */
import { z } from "zod";
import {
  bool,
  count,
  given,
  labels,
  number,
  text,
  typeError,
  typeName,
  url,
  withoutRepeats,
} from "./event-fields.ts";
import { checkTimes, dateTime, utcTimesOf } from "./event-times.ts";
import { isIanaTimeZone } from "./zoned-time.ts";
import { cfpDateTime, checkCfp, utcCfpTimesOf } from "./cfp-times.ts";

export const PLATFORMS = [
  "luma",
  "eventbrite",
  "meetup",
  "ticketmaster",
  "ics_feed",
  "manual",
  "other",
] as const;
export type Platform = typeof PLATFORMS[number];

export const MAX_BATCH_EVENTS = 100;

const platform = z.enum(PLATFORMS, {
  error: (issue) =>
    issue.input === undefined
      ? "platform is required"
      : `platform must be one of ${PLATFORMS.join(", ")}; got ${JSON.stringify(issue.input)}`,
});

// Optional fields are plain `.nullish()`: their defaults are filled in by EventInput's one
// transform (toEventRecord), since a transform per field cost more than all the field rules.
const eventShape = {
  external_id: text("external_id", 500, { required: true }),
  source_url: url("source_url", { required: true }),
  title: text("title", 500, { required: true }),
  starts_at: dateTime("starts_at", { required: true }),
  platform: platform.nullish(),
  description: text("description", 10_000).nullish(),
  ends_at: dateTime("ends_at").nullish(),
  timezone: text("timezone", 64, {
    rule: (s) =>
      isIanaTimeZone(s)
        ? null
        : "timezone must be an IANA time zone name such as Europe/Berlin or America/New_York",
  }).nullish(),
  venue_name: text("venue_name", 500).nullish(),
  city: text("city", 500).nullish(),
  country: text("country", 500).nullish(),
  latitude: number("latitude", { min: -90, max: 90 }).nullish(),
  longitude: number("longitude", { min: -180, max: 180 }).nullish(),
  is_virtual: bool("is_virtual").nullish(),
  is_hybrid: bool("is_hybrid").nullish(),
  // Its default depends on the prices: see toEventRecord.
  is_free: bool("is_free").nullish(),
  price_min: number("price_min", { min: 0 }).nullish(),
  price_max: number("price_max", { min: 0 }).nullish(),
  currency: text("currency", 3, {
    rule: (s) =>
      /^[A-Z]{3}$/.test(s)
        ? null
        : "currency must be a three-letter ISO 4217 code in capitals, such as USD or EUR",
  }).nullish(),
  is_sold_out: bool("is_sold_out").nullish(),
  event_type: text("event_type", 500).nullish(),
  categories: labels("categories", 20).nullish(),
  tags: labels("tags", 50).nullish(),
  topics: labels("topics", 20).nullish(),
  organiser_name: text("organiser_name", 500).nullish(),
  organiser_url: url("organiser_url").nullish(),
  cover_image_url: url("cover_image_url").nullish(),
  attendee_count: count("attendee_count").nullish(),
  capacity: count("capacity").nullish(),
  cfp_url: url("cfp_url").nullish(),
  cfp_opens_at: cfpDateTime("cfp_opens_at").nullish(),
  cfp_closes_at: cfpDateTime("cfp_closes_at").nullish(),
};

type PartialEvent = Record<string, unknown>;

/** The first price above 0 that the event gives, as [field, value]. */
function priceAboveZero(e: PartialEvent): [string, number] | null {
  for (const field of ["price_min", "price_max"]) {
    const value = e[field];
    if (typeof value === "number" && value > 0) return [field, value];
  }
  return null;
}

/** The prices agree with each other and with is_free. */
function checkPrices(e: PartialEvent, ctx: z.RefinementCtx) {
  const { price_min: min, price_max: max } = e;
  if (typeof min === "number" && typeof max === "number" && min > max) {
    ctx.addIssue({
      code: "custom",
      path: ["price_min"],
      message: `price_min (${min}) is greater than price_max (${max})`,
    });
  }
  const price = priceAboveZero(e);
  if (e.is_free === true && price !== null) {
    ctx.addIssue({
      code: "custom",
      path: ["is_free"],
      message: `is_free is true but ${price[0]} is ${price[1]}: set is_free to false for a ` +
        "paid event, or leave out the price",
    });
  }
}

/**
 * Rules that span fields. They run even when other fields failed, so that one response lists
 * every problem; each rule looks only at fields that are themselves valid.
 */
function checkAcrossFields(e: PartialEvent, ctx: z.RefinementCtx) {
  // `when` runs this on any input, also on an item that is null or not an object at all.
  if (typeof e !== "object" || e === null) return;
  const times = checkTimes(e, ctx);
  checkCfp(e, { ctx, eventEndMs: times.endsAt ?? times.startsAt });
  checkPrices(e, ctx);
}

type CheckedEvent = z.output<z.ZodObject<typeof eventShape>>;

/**
 * A checked event with every default filled in, in the fields' order: blank optional fields are
 * null, times UTC instants, labels without repeats.
 */
function toEventRecord(e: CheckedEvent) {
  const times = utcTimesOf(e);
  const cfp = utcCfpTimesOf(e);
  return {
    external_id: e.external_id,
    source_url: e.source_url,
    title: e.title,
    starts_at: times.startsAt,
    platform: e.platform ?? "other",
    description: given(e.description),
    ends_at: times.endsAt,
    timezone: given(e.timezone),
    venue_name: given(e.venue_name),
    city: given(e.city),
    country: given(e.country),
    latitude: given(e.latitude),
    longitude: given(e.longitude),
    is_virtual: e.is_virtual ?? false,
    is_hybrid: given(e.is_hybrid),
    // Free unless a price above 0 says otherwise (docs/api.md#field-rules).
    is_free: e.is_free ?? priceAboveZero(e) === null,
    price_min: given(e.price_min),
    price_max: given(e.price_max),
    currency: e.currency || "USD",
    is_sold_out: given(e.is_sold_out),
    event_type: given(e.event_type),
    categories: withoutRepeats(e.categories),
    tags: withoutRepeats(e.tags),
    topics: withoutRepeats(e.topics),
    organiser_name: given(e.organiser_name),
    organiser_url: given(e.organiser_url),
    cover_image_url: given(e.cover_image_url),
    attendee_count: given(e.attendee_count),
    capacity: given(e.capacity),
    cfp_url: given(e.cfp_url),
    cfp_opens_at: cfp.opensAt,
    cfp_closes_at: cfp.closesAt,
  } satisfies Record<keyof typeof eventShape, unknown>;
}

/**
 * Every rule of one event, without the normalised copy EventInput makes of it: it accepts and
 * refuses exactly what EventInput does, with the same messages. For callers that need only the
 * verdict (the CLI checks each record of a feed and sends the record as it was read).
 */
export const EventChecks = z.strictObject(eventShape, {
  error: (issue) =>
    issue.code === "invalid_type"
      ? `each event must be a JSON object, not ${typeName(issue.input)}`
      : undefined,
})
  .superRefine(checkAcrossFields, { when: () => true });

/** One submitted event: every field rule of the spec and of docs/api.md#field-rules, normalised. */
export const EventInput = EventChecks
  .transform(toEventRecord)
  .meta({ id: "Event", description: "An event as a contributor submits it." });

/** A validated, normalised event: defaults applied, times in UTC, labels de-duplicated. */
export type EventRecord = z.output<typeof EventInput>;
/** An event as a contributor may write it. */
export type EventSubmission = z.input<typeof EventInput>;

/** The field names a contributor may send, in the spec's order. */
export const EVENT_FIELDS = Object.keys(eventShape) as (keyof typeof eventShape)[];

/** The body of POST /api/v1/events. */
export const EventBatch = z.strictObject({
  events: z.array(EventInput, { error: typeError("events", "an array of events") })
    .min(1, { message: "events must hold at least 1 event" })
    .max(MAX_BATCH_EVENTS, {
      message: `events may hold at most ${MAX_BATCH_EVENTS} events; split the batch`,
    }),
}, {
  error: (issue) =>
    issue.code === "invalid_type"
      ? `the request body must be a JSON object with an events array, not ${typeName(issue.input)}`
      : undefined,
}).meta({ id: "EventBatch" });

/** What names an event for its contributor: the upsert pair, with the push's rules. */
export const EventKey = z.strictObject({
  external_id: eventShape.external_id,
  platform: platform.nullish().transform((v) => v ?? "other"),
}, {
  error: (issue) =>
    issue.code === "invalid_type"
      ? `each item must be a JSON object with external_id and platform, not ${
        typeName(issue.input)
      }`
      : undefined,
}).meta({ id: "EventKey", description: "An event named by its (external_id, platform) pair." });
