/**
 * A call for papers' dates: `cfp_opens_at` and `cfp_closes_at` read as instants, a bare date as
 * CFP pages mean it (docs/dates.md#a-call-for-papers), and the rules that tie them to the CFP's
 * URL and to the event's own times.
 */
import type { z } from "zod";
import { text } from "./event-fields.ts";
import { dateTimeProblemMessage } from "./event-times.ts";
import {
  isIanaTimeZone,
  isStorableInstant,
  parseDate,
  parseDateTime,
  type WallTime,
  zonedWallTimeToEpochMs,
} from "./zoned-time.ts";

/** The CFP date fields, in the event's field order. */
export type CfpDateField = "cfp_opens_at" | "cfp_closes_at";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
// A bare closing date runs to the end of that day on the last clocks to end it (UTC-12, "Anywhere
// on Earth"); a bare opening date starts with the first clocks to begin it (UTC+14).
const ANYWHERE_ON_EARTH_OFFSET_MS = -12 * HOUR_MS;
const EARLIEST_OFFSET_MS = 14 * HOUR_MS;

/** A CFP time as read: an instant, a local wall time (needs a timezone), or a bare date. */
type CfpReading =
  | { kind: "instant"; epochMs: number }
  | { kind: "local"; wall: WallTime }
  | { kind: "date"; utcMidnightMs: number }
  | { kind: "invalid"; message: string };

function readCfpTime(field: CfpDateField, value: string): CfpReading {
  const parsed = parseDateTime(value);
  if (parsed.kind === "instant" || parsed.kind === "local") return parsed;
  if (parsed.reason !== "date_only") {
    return { kind: "invalid", message: dateTimeProblemMessage(field, value, parsed.reason) };
  }
  const date = parseDate(value);
  return date.kind === "date"
    ? { kind: "date", utcMidnightMs: date.epochMs }
    : { kind: "invalid", message: dateTimeProblemMessage(field, value, "calendar") };
}

/**
 * The instant a bare CFP date stands for: the last second of that day Anywhere on Earth for a
 * closing date (open through that second), its first moment in UTC+14 for an opening date.
 */
export function bareCfpDateInstant(field: CfpDateField, utcMidnightMs: number): number {
  return field === "cfp_closes_at"
    ? utcMidnightMs + DAY_MS - ANYWHERE_ON_EARTH_OFFSET_MS - 1000
    : utcMidnightMs - EARLIEST_OFFSET_MS;
}

/** A CFP date field: a date-time with offset, a local date-time (with timezone), or a date. */
export function cfpDateTime(field: CfpDateField) {
  return text(field, 64, {
    rule: (s) => {
      const reading = readCfpTime(field, s);
      return reading.kind === "invalid" ? reading.message : null;
    },
  }).meta({
    description: field === "cfp_closes_at"
      ? "When the call for papers closes: a date-time, or a date (open to the end of that day " +
        "Anywhere on Earth, UTC-12)."
      : "When the call for papers opens: a date-time, or a date (from the start of that day in " +
        "UTC+14).",
  });
}

/** The instant of a CFP time, or null when it cannot be read (or is local without a zone). */
export function cfpInstant(
  field: CfpDateField,
  value: unknown,
  timezone: string | null,
): number | null {
  if (typeof value !== "string" || value === "") return null;
  const reading = readCfpTime(field, value);
  switch (reading.kind) {
    case "instant":
      return reading.epochMs;
    case "date":
      return bareCfpDateInstant(field, reading.utcMidnightMs);
    case "local":
      return timezone === null ? null : zonedWallTimeToEpochMs(reading.wall, timezone);
    case "invalid":
      return null;
  }
}

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

const present = (v: unknown) => v !== undefined && v !== null && v !== "";

/**
 * The CFP rules across fields: a date needs `cfp_url`, a local time needs `timezone`, the CFP
 * opens before it closes and closes before the event ends (`ends_at`, else `starts_at`).
 */
export function checkCfp(
  e: Record<string, unknown>,
  o: { ctx: z.RefinementCtx; eventEndMs: number | null },
) {
  const zone = e.timezone;
  const timezone = typeof zone === "string" && isIanaTimeZone(zone) ? zone : null;
  const instants: Partial<Record<CfpDateField, number>> = {};
  for (const field of ["cfp_opens_at", "cfp_closes_at"] as const) {
    const value = e[field];
    if (!present(value)) continue;
    if (!present(e.cfp_url)) {
      o.ctx.addIssue({
        code: "custom",
        path: [field],
        message: `${field} is given without cfp_url: add the call for papers' page as cfp_url, ` +
          `or leave out ${field}`,
      });
    }
    const ms = cfpInstant(field, value, timezone);
    if (ms !== null && !isStorableInstant(ms)) {
      o.ctx.addIssue({
        code: "custom",
        path: [field],
        message: dateTimeProblemMessage(field, String(value), "range"),
      });
    } else if (ms !== null) {
      instants[field] = ms;
    } else if (typeof value === "string" && timezone === null && !present(zone)) {
      if (readCfpTime(field, value).kind === "local") {
        o.ctx.addIssue({
          code: "custom",
          path: [field],
          message: `${field} ${JSON.stringify(value)} has no UTC offset: add Z or an offset ` +
            "such as +02:00, give the event's timezone, or give a bare date (2027-01-15)",
        });
      }
    }
  }
  const { cfp_opens_at: opens, cfp_closes_at: closes } = instants;
  if (opens !== undefined && closes !== undefined && opens > closes) {
    o.ctx.addIssue({
      code: "custom",
      path: ["cfp_opens_at"],
      message: `cfp_opens_at (${iso(opens)}) is after cfp_closes_at (${iso(closes)}): a call ` +
        "for papers must open before it closes; check both dates",
    });
  }
  if (closes !== undefined && o.eventEndMs !== null && closes > o.eventEndMs) {
    const end = present(e.ends_at) ? "ends_at" : "starts_at";
    o.ctx.addIssue({
      code: "custom",
      path: ["cfp_closes_at"],
      message: `cfp_closes_at (${iso(closes)}) is after the event's ${end} ` +
        `(${iso(o.eventEndMs)}): a call for papers closes before its event ends; check the ` +
        "date (a bare date closes at the end of that day Anywhere on Earth, UTC-12)",
    });
  }
}

/** The CFP times of an event the checks accepted, as UTC instants in ISO form (null if absent). */
export function utcCfpTimesOf(
  e: { cfp_opens_at?: string | null; cfp_closes_at?: string | null; timezone?: string | null },
): { opensAt: string | null; closesAt: string | null } {
  const zone = present(e.timezone) ? e.timezone! : null;
  const at = (field: CfpDateField) => {
    const ms = cfpInstant(field, e[field], zone);
    return ms === null ? null : new Date(ms).toISOString();
  };
  return { opensAt: at("cfp_opens_at"), closesAt: at("cfp_closes_at") };
}
