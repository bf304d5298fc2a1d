/**
 * The one definition of a contributor's Event, the batch envelope and the API's response bodies.
 * The server validates requests with it, the CLI validates files with it before sending, and the
 * OpenAPI document is generated from it.
 */
import { z } from "zod";
import {
  type DateTimeProblem,
  isIanaTimeZone,
  isStorableInstant,
  parseDateTime,
  type ParsedDateTime,
  zonedWallTimeToEpochMs,
} from "./zoned-time.ts";

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
export const MAX_URL_LENGTH = 2048;
export const MAX_ARRAY_ITEM_LENGTH = 100;
const MAX_INT4 = 2_147_483_647;
const LONE_SURROGATE = /\p{Cs}/u;

function typeName(input: unknown): string {
  if (input === null) return "null";
  if (typeof input === "number" && Number.isNaN(input)) return "NaN";
  if (Array.isArray(input)) return "an array";
  return typeof input === "object" ? "an object" : `a ${typeof input}`;
}

/** A message for a missing field or a value of the wrong JSON type. */
function typeError(field: string, expected: string) {
  return (issue: { input?: unknown }) => {
    if (issue.input === undefined) return `${field} is required`;
    // JSON.parse turns a literal too large for a double (1e400) into Infinity.
    if (issue.input === Infinity || issue.input === -Infinity) {
      return `${field} is too large to store: send a number between -1e308 and 1e308`;
    }
    return `${field} must be ${expected}, not ${typeName(issue.input)}`;
  };
}

function text(field: string, max: number) {
  // trim() rewrites the value in place: a transform would allocate a pipe's worth per field.
  return z.string({ error: typeError(field, "a string") })
    .trim()
    .check((ctx) => {
      const s = ctx.value;
      if (s.includes("\u0000")) {
        ctx.issues.push({
          code: "custom",
          input: s,
          message: `${field} contains a NUL character (\\u0000), which cannot be stored: remove it`,
        });
      }
      // JSON may escape half of a surrogate pair (\ud800), which is no character and no UTF-8.
      if (LONE_SURROGATE.test(s)) {
        ctx.issues.push({
          code: "custom",
          input: s,
          message:
            `${field} contains an unpaired UTF-16 surrogate (such as \\ud800): send valid Unicode`,
        });
      }
      // Limits count characters (code points), not UTF-16 units: an emoji is one character.
      const length = s.length > max ? [...s].length : s.length;
      if (length > max) {
        ctx.issues.push({
          code: "custom",
          input: s,
          message: `${field} is ${length} characters long; the limit is ${max}`,
        });
      }
    })
    // The checks above are code, invisible to the OpenAPI document: state the limit there too.
    .meta({ maxLength: max });
}

function nonEmpty<T extends z.ZodType<string>>(field: string, schema: T) {
  return schema.refine((s) => s.length > 0, { message: `${field} must not be empty` });
}

function requiredText(field: string, max: number) {
  return nonEmpty(field, text(field, max));
}

/** An optional field: omitted, null and (for strings) blank all mean "not given". */
function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((v) => (v === undefined || v === "" ? null : v));
}

function url(field: string) {
  return text(field, MAX_URL_LENGTH).refine((s) => s === "" || isHttpUrl(s), {
    message: `${field} must be an absolute http:// or https:// URL`,
    // No `format: uri`: the server takes what WHATWG URL parsing takes (spaces, Unicode), which
    // that format forbids; the pattern and the description state the real rule.
  }).meta({
    pattern: "^[hH][tT][tT][pP][sS]?://",
    description: "An absolute http:// or https:// URL with a host.",
  });
}

function isHttpUrl(s: string): boolean {
  if (!/^https?:\/\//i.test(s)) return false;
  try {
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}

function number(field: string, min?: number, max?: number) {
  return z.number({ error: typeError(field, "a number") }).check((ctx) => {
    const n = ctx.value;
    if (!Number.isFinite(n)) {
      ctx.issues.push({ code: "custom", input: n, message: `${field} must be a finite number` });
    } else if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
      const range = max === undefined ? `at least ${min}` : `between ${min} and ${max}`;
      ctx.issues.push({ code: "custom", input: n, message: `${field} must be ${range}, got ${n}` });
    }
  }).meta({ minimum: min, maximum: max });
}

function count(field: string) {
  return number(field, 0, MAX_INT4).refine((n) => Number.isInteger(n), {
    message: `${field} must be a whole number`,
  }).meta({ type: "integer" });
}

function bool(field: string) {
  return z.boolean({ error: typeError(field, "true or false") });
}

/** A list of short labels; blank items are errors, case-insensitive repeats are dropped. */
function labels(field: string, maxItems: number) {
  return z.array(requiredText(`each ${field} item`, MAX_ARRAY_ITEM_LENGTH), {
    error: typeError(field, "an array of strings"),
  })
    .max(maxItems, { message: `${field} may have at most ${maxItems} items` })
    .transform((items) => {
      const seen = new Set<string>();
      return items.filter((item) => {
        const key = item.toLowerCase();
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    });
}

const DATE_ONLY_HINT = "add a time, such as 2026-05-01T09:00:00Z";
const NO_OFFSET_HINT =
  "add Z or a UTC offset such as +02:00, or give the event's timezone (an IANA name such as Europe/Berlin)";

/** Why `value` of `field` is not a date-time, in words that say how to fix it. */
export function dateTimeProblemMessage(
  field: string,
  value: string,
  reason: DateTimeProblem,
): string {
  const quoted = JSON.stringify(value);
  switch (reason) {
    case "date_only":
      return `${field} ${quoted} is a date without a time: ${DATE_ONLY_HINT}`;
    case "calendar":
      return /^\d{4}-\d{2}-\d{2}$/.test(value)
        ? `${field} ${quoted} is not a real date: check the day of the month`
        : `${field} ${quoted} is not a real date and time: check the day of the month and ` +
          "that the time is between 00:00:00 and 23:59:59";
    case "offset":
      return `${field} ${quoted} has a UTC offset out of range: offsets go from -23:59 to ` +
        "+23:59, with minutes below 60";
    case "range":
      return `${field} ${quoted} is outside the years 0001 to 9999`;
    case "format":
      return `${field} ${quoted} is not an ISO 8601 date-time: use a form such as ` +
        "2026-05-01T09:00:00Z or 2026-05-01T09:00:00+02:00";
  }
}

/** An ISO 8601 date-time; whether it needs a timezone is checked with the whole event. */
function dateTime(field: string) {
  return text(field, 64).check((ctx) => {
    if (ctx.value === "") return;
    const parsed = parseDateTime(ctx.value);
    if (parsed.kind !== "invalid") return;
    const message = dateTimeProblemMessage(field, ctx.value, parsed.reason);
    ctx.issues.push({ code: "custom", input: ctx.value, message });
  });
}

const eventShape = {
  external_id: requiredText("external_id", 500),
  source_url: nonEmpty("source_url", url("source_url")),
  title: requiredText("title", 500),
  starts_at: nonEmpty("starts_at", dateTime("starts_at")),
  platform: z.enum(PLATFORMS, {
    error: (issue) =>
      issue.input === undefined
        ? "platform is required"
        : `platform must be one of ${PLATFORMS.join(", ")}; got ${JSON.stringify(issue.input)}`,
  }).nullish().transform((v) => v ?? "other"),
  description: optional(text("description", 10_000)),
  ends_at: optional(dateTime("ends_at")),
  timezone: optional(
    text("timezone", 64).refine((s) => s === "" || isIanaTimeZone(s), {
      message: "timezone must be an IANA time zone name such as Europe/Berlin or America/New_York",
    }),
  ),
  venue_name: optional(text("venue_name", 500)),
  city: optional(text("city", 500)),
  country: optional(text("country", 500)),
  latitude: optional(number("latitude", -90, 90)),
  longitude: optional(number("longitude", -180, 180)),
  is_virtual: bool("is_virtual").nullish().transform((v) => v ?? false),
  is_hybrid: optional(bool("is_hybrid")),
  // Its default depends on the prices: see isFreeOf.
  is_free: bool("is_free").nullish(),
  price_min: optional(number("price_min", 0)),
  price_max: optional(number("price_max", 0)),
  currency: text("currency", 3).refine((s) => s === "" || /^[A-Z]{3}$/.test(s), {
    message: "currency must be a three-letter ISO 4217 code in capitals, such as USD or EUR",
  }).nullish().transform((v) => v || "USD"),
  is_sold_out: optional(bool("is_sold_out")),
  event_type: optional(text("event_type", 500)),
  categories: labels("categories", 20).nullish().transform((v) => v ?? []),
  tags: labels("tags", 50).nullish().transform((v) => v ?? []),
  topics: labels("topics", 20).nullish().transform((v) => v ?? []),
  organiser_name: optional(text("organiser_name", 500)),
  organiser_url: optional(url("organiser_url")),
  cover_image_url: optional(url("cover_image_url")),
  attendee_count: optional(count("attendee_count")),
  capacity: optional(count("capacity")),
};

/** The UTC instant of a submitted time, or null when it cannot be read without a timezone. */
function toUtcIso(value: string, timezone: string | null): string | null {
  const epochMs = toEpochMs(parseDateTime(value), timezone);
  return epochMs === null ? null : new Date(epochMs).toISOString();
}

function toEpochMs(parsed: ParsedDateTime, timezone: string | null): number | null {
  if (parsed.kind === "instant") return parsed.epochMs;
  if (parsed.kind === "local" && timezone !== null) {
    return zonedWallTimeToEpochMs(parsed.wall, timezone);
  }
  return null;
}

type PartialEvent = Record<string, unknown>;

/**
 * UTC times worked out by checkTimes, kept for the final transform of the same object so that
 * each time is read once per event (this schema runs for every event of a large CLI feed).
 */
const utcTimes = new WeakMap<object, Record<string, string | null>>();

/** starts_at and ends_at as instants: each readable, storable, and in order. */
function checkTimes(e: PartialEvent, ctx: z.RefinementCtx) {
  const timezone = typeof e.timezone === "string" && isIanaTimeZone(e.timezone) ? e.timezone : null;
  const timezoneGiven = e.timezone !== undefined && e.timezone !== null && e.timezone !== "";
  const times: Record<string, string | null> = {};
  for (const field of ["starts_at", "ends_at"] as const) {
    const value = e[field];
    if (typeof value !== "string") continue;
    const parsed = parseDateTime(value);
    if (parsed.kind === "invalid") continue;
    const epochMs = toEpochMs(parsed, timezone);
    // A local time with a wrong timezone: the timezone's own message says what to fix.
    if (epochMs === null && timezoneGiven) continue;
    const message = epochMs === null
      ? `${field} ${JSON.stringify(value)} has no UTC offset: ${NO_OFFSET_HINT}`
      : isStorableInstant(epochMs)
      ? null
      : dateTimeProblemMessage(field, value, "range");
    if (message !== null) ctx.addIssue({ code: "custom", path: [field], message });
    else times[field] = new Date(epochMs!).toISOString();
  }
  if (times.starts_at && times.ends_at && times.ends_at < times.starts_at) {
    ctx.addIssue({
      code: "custom",
      path: ["ends_at"],
      message: `ends_at (${times.ends_at}) is before starts_at (${times.starts_at})`,
    });
  }
  utcTimes.set(e, times);
}

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
  checkTimes(e, ctx);
  checkPrices(e, ctx);
}

/** One submitted event: every field rule of the spec and of CONTRACT.md. */
export const EventInput = z.strictObject(eventShape, {
  error: (issue) =>
    issue.code === "invalid_type"
      ? `each event must be a JSON object, not ${typeName(issue.input)}`
      : undefined,
})
  .superRefine(checkAcrossFields, { when: () => true })
  .transform((e) => {
    // Both resolve: checkTimes has rejected every time that cannot. It saw this very
    // object (the transform runs only when every check passed) with the same timezone.
    const times = utcTimes.get(e);
    return {
      ...e,
      // Free unless a price above 0 says otherwise (CONTRACT.md).
      is_free: e.is_free ?? priceAboveZero(e) === null,
      starts_at: (times?.starts_at ?? toUtcIso(e.starts_at, e.timezone)) as string,
      ends_at: e.ends_at === null ? null : times?.ends_at ?? toUtcIso(e.ends_at, e.timezone),
    };
  })
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
  platform: eventShape.platform,
}, {
  error: (issue) =>
    issue.code === "invalid_type"
      ? `each item must be a JSON object with external_id and platform, not ${
        typeName(issue.input)
      }`
      : undefined,
}).meta({ id: "EventKey", description: "An event named by its (external_id, platform) pair." });
