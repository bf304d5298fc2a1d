/**
 * The event's times: each date-time field read as ISO 8601, and across fields a local time read in
 * the event's timezone, every instant storable, the end not before the start. The instants found
 * here are what the normalised event carries (utcTimesOf).
 */
import type { z } from "zod";
import { text } from "./event-fields.ts";
import {
  type DateTimeProblem,
  isDateOnly,
  isIanaTimeZone,
  isStorableInstant,
  parseDateTime,
  type ParsedDateTime,
  zonedWallTimeToEpochMs,
} from "./zoned-time.ts";

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
      return isDateOnly(value)
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
export function dateTime(field: string, rules: { required?: boolean } = {}) {
  return text(field, 64, {
    ...rules,
    rule: (s) => {
      const parsed = readDateTime(s);
      return parsed.kind === "invalid" ? dateTimeProblemMessage(field, s, parsed.reason) : null;
    },
  });
}

// Each time is read by its field's rule and again by checkTimes: keep the last two readings.
const readings: { text: string; parsed: ParsedDateTime }[] = [];

/** parseDateTime(text), read again only when it is not one of the last two texts read. */
function readDateTime(text: string): ParsedDateTime {
  for (const reading of readings) if (reading.text === text) return reading.parsed;
  const parsed = parseDateTime(text);
  if (readings.length === 2) readings.shift();
  readings.push({ text, parsed });
  return parsed;
}

/** The instant of a submitted time, or null when it cannot be read without a timezone. */
function toEpochMs(parsed: ParsedDateTime, timezone: string | null): number | null {
  if (parsed.kind === "instant") return parsed.epochMs;
  if (parsed.kind === "local" && timezone !== null) {
    return zonedWallTimeToEpochMs(parsed.wall, timezone);
  }
  return null;
}

/**
 * The instants checkTimes found, kept for the transform of the same object so that each time is
 * read once per event. One slot, not a WeakMap: the transform runs right after the check of its
 * own object, and a WeakMap entry per event made every garbage collection slower.
 */
let lastChecked: object | null = null;
let lastStartsAt: number | null = null;
let lastEndsAt: number | null = null;

/**
 * starts_at and ends_at as instants: each readable, storable, and in order. Returns the instants
 * (null where missing or refused) for the rules that compare other times with them.
 */
export function checkTimes(
  e: Record<string, unknown>,
  ctx: z.RefinementCtx,
): { startsAt: number | null; endsAt: number | null } {
  const zone = e.timezone;
  const timezone = typeof zone === "string" && isIanaTimeZone(zone) ? zone : null;
  const timezoneGiven = zone !== undefined && zone !== null && zone !== "";
  const startsAt = checkedInstant("starts_at", e.starts_at, { timezone, timezoneGiven, ctx });
  const endsAt = checkedInstant("ends_at", e.ends_at, { timezone, timezoneGiven, ctx });
  if (startsAt !== null && endsAt !== null && endsAt < startsAt) {
    const ends = new Date(endsAt).toISOString();
    const starts = new Date(startsAt).toISOString();
    ctx.addIssue({
      code: "custom",
      path: ["ends_at"],
      message: `ends_at (${ends}) is before starts_at (${starts})`,
    });
  }
  lastChecked = e;
  lastStartsAt = startsAt;
  lastEndsAt = endsAt;
  return { startsAt, endsAt };
}

/**
 * A time field as an instant, or null when it is missing, unreadable (its own check says why) or
 * adds an issue here: a local time without a timezone, or out of range.
 */
function checkedInstant(
  field: "starts_at" | "ends_at",
  value: unknown,
  zone: { timezone: string | null; timezoneGiven: boolean; ctx: z.RefinementCtx },
): number | null {
  if (typeof value !== "string") return null;
  const parsed = readDateTime(value);
  if (parsed.kind === "invalid") return null;
  const epochMs = toEpochMs(parsed, zone.timezone);
  // A local time with a wrong timezone: the timezone's own message says what to fix.
  if (epochMs === null && zone.timezoneGiven) return null;
  const message = epochMs === null
    ? `${field} ${JSON.stringify(value)} has no UTC offset: ${NO_OFFSET_HINT}`
    : isStorableInstant(epochMs)
    ? null
    : dateTimeProblemMessage(field, value, "range");
  if (message === null) return epochMs;
  zone.ctx.addIssue({ code: "custom", path: [field], message });
  return null;
}

/** The times of an event the checks accepted, as UTC instants in ISO form. */
export function utcTimesOf(
  e: { starts_at: string; ends_at?: string | null; timezone?: string | null },
): { startsAt: string; endsAt: string | null } {
  // checkTimes has rejected every time that cannot be read; it normally saw this very object last
  // (the transform runs right after the checks of its own object, and only when all passed).
  const checked = lastChecked === e;
  const zone = e.timezone === undefined || e.timezone === "" ? null : e.timezone;
  const instant = (value: string, found: number | null) =>
    new Date(checked && found !== null ? found : toEpochMs(readDateTime(value), zone)!)
      .toISOString();
  return {
    startsAt: instant(e.starts_at, lastStartsAt),
    endsAt: e.ends_at === undefined || e.ends_at === null || e.ends_at === ""
      ? null
      : instant(e.ends_at, lastEndsAt),
  };
}
