/**
 * Date-time parsing for event times: ISO 8601 with an offset, or a local wall-clock time read in
 * an IANA zone. Shared by the server's validation and the CLI's readers.
 */

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
/** A date without a time, YYYY-MM-DD: the one pattern for it (isDateOnly, parseDate). */
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A local wall-clock time, before a zone or offset is applied. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** Why a text is not a usable date-time. */
export type DateTimeProblem =
  /** A date without a time of day. */
  | "date_only"
  /** Not ISO 8601 at all. */
  | "format"
  /** A day or time that does not exist, such as February 30 or 24:00. */
  | "calendar"
  /** A UTC offset outside -23:59..+23:59 or with 60 or more minutes. */
  | "offset"
  /** An instant outside the years 0001-9999, which the database cannot store. */
  | "range";

/** The result of reading a date-time string: either an instant, a wall time, or a problem. */
export type ParsedDateTime =
  | { kind: "instant"; epochMs: number }
  | { kind: "local"; wall: WallTime }
  | { kind: "invalid"; reason: DateTimeProblem };

/** Reads an ISO 8601 date-time; a string without `Z` or an offset comes back as a wall time. */
export function parseDateTime(text: string): ParsedDateTime {
  const m = DATE_TIME.exec(text);
  // A bare date can never match DATE_TIME, so it is only looked for when that fails.
  if (!m) return { kind: "invalid", reason: DATE_ONLY.test(text) ? "date_only" : "format" };
  const wall: WallTime = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: m[6] === undefined ? 0 : Number(m[6]),
    millisecond: m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000),
  };
  if (!isRealWallTime(wall)) return { kind: "invalid", reason: "calendar" };
  if (m[8] === undefined) return { kind: "local", wall };
  const offset = offsetMinutes(m[8]);
  if (offset === null) return { kind: "invalid", reason: "offset" };
  const epochMs = wallToUtcMs(wall) - offset * 60_000;
  return isStorableInstant(epochMs) ? { kind: "instant", epochMs } : {
    kind: "invalid",
    reason: "range",
  };
}

/** The result of reading a calendar date such as 2026-05-01. */
export type ParsedDate =
  | { kind: "date"; year: number; month: number; day: number; epochMs: number }
  | { kind: "invalid"; reason: "format" | "calendar" };

/** Whether `text` has the form of a date without a time (YYYY-MM-DD), real or not. */
export function isDateOnly(text: string): boolean {
  return DATE_ONLY.test(text);
}

/**
 * A bare date as a span of time: from its first moment to its last millisecond on the clocks of
 * `timeZone`, the asker's zone (UTC wherever they cannot name one). Null when `text` is not a
 * real date. Every surface reads a date filter this way: docs/dates.md.
 */
export function dayBounds(
  text: string,
  timeZone: string,
): { startMs: number; endMs: number } | null {
  const date = parseDate(text);
  if (date.kind !== "date") return null;
  const next = new Date(0);
  next.setUTCFullYear(date.year, date.month - 1, date.day + 1);
  const midnight = (year: number, month: number, day: number) =>
    zonedWallTimeToEpochMs(
      { year, month, day, hour: 0, minute: 0, second: 0, millisecond: 0 },
      timeZone,
    );
  return {
    startMs: midnight(date.year, date.month, date.day),
    endMs: midnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate()) - 1,
  };
}

/** Reads a date (YYYY-MM-DD); `epochMs` is its midnight in UTC. February 30 is no date. */
export function parseDate(text: string): ParsedDate {
  const m = DATE_ONLY.exec(text);
  if (!m) return { kind: "invalid", reason: "format" };
  const wall = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: 0,
    minute: 0,
    second: 0,
    millisecond: 0,
  };
  if (!isRealWallTime(wall)) return { kind: "invalid", reason: "calendar" };
  return {
    kind: "date",
    year: wall.year,
    month: wall.month,
    day: wall.day,
    epochMs: wallToUtcMs(wall),
  };
}

// PostgreSQL stores years 4713 BC to 294276 AD, but ISO 8601 text and this parser have 4-digit
// years, and there is no year 0: keep every instant in 0001-01-01 .. 9999-12-31 UTC.
const FIRST_STORABLE_MS = Date.parse("0001-01-01T00:00:00.000Z");
const LAST_STORABLE_MS = Date.parse("9999-12-31T23:59:59.999Z");

/** Whether an instant lies in the years 0001-9999 (UTC), which every part of the system holds. */
export function isStorableInstant(epochMs: number): boolean {
  return epochMs >= FIRST_STORABLE_MS && epochMs <= LAST_STORABLE_MS;
}

/** Minutes east of UTC, or null when out of range (-23:59..+23:59, minutes below 60). */
function offsetMinutes(offset: string): number | null {
  if (offset.toUpperCase() === "Z") return 0;
  const sign = offset[0] === "-" ? -1 : 1;
  const digits = offset.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4) || "0");
  if (hours > 23 || minutes > 59) return null;
  return sign * (hours * 60 + minutes);
}

// The Gregorian calendar repeats every 400 years, which are exactly this many milliseconds.
const FOUR_CENTURIES_MS = 146_097 * 86_400_000;

function wallToUtcMs(w: WallTime): number {
  // Date.UTC reads the years 0-99 as 1900-1999: count those from four centuries later. (No Date
  // object: this runs several times for every event the server or the CLI checks.)
  const { year, month, day, hour, minute, second, millisecond } = w;
  return year >= 0 && year < 100
    ? Date.UTC(year + 400, month - 1, day, hour, minute, second, millisecond) - FOUR_CENTURIES_MS
    : Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isRealWallTime(w: WallTime): boolean {
  if (w.year === 0 || w.hour > 23 || w.minute > 59 || w.second > 59) return false;
  if (w.month < 1 || w.month > 12 || w.day < 1) return false;
  return w.day <= (w.month === 2 && isLeapYear(w.year) ? 29 : DAYS_IN_MONTH[w.month - 1]);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

const QUARTER_HOUR_MS = 15 * 60_000;
const MAX_CACHED_OFFSETS = 200_000;
// Per zone, quarter-hour number to offset; numeric keys avoid building a string per lookup.
const offsetCache = new Map<string, Map<number, number>>();
let cachedOffsets = 0;

/** Offset of `timeZone` from UTC at the instant `epochMs`, in milliseconds. */
export function zoneOffsetMs(timeZone: string, epochMs: number): number {
  // Formatting is slow (~15 µs) and readers convert many times. Since 1970 every zone changes
  // offset only on a quarter hour of UTC, so the offset at a quarter hour's start holds for all
  // of it.
  const quarter = Math.floor(epochMs / QUARTER_HOUR_MS);
  let zone = offsetCache.get(timeZone);
  let offset = zone?.get(quarter);
  if (offset === undefined) {
    offset = formattedOffsetMs(timeZone, quarter * QUARTER_HOUR_MS);
    if (cachedOffsets >= MAX_CACHED_OFFSETS) {
      offsetCache.clear();
      cachedOffsets = 0;
      zone = undefined;
    }
    if (zone === undefined) {
      zone = new Map();
      offsetCache.set(timeZone, zone);
    }
    zone.set(quarter, offset);
    cachedOffsets++;
  }
  return offset;
}

function formattedOffsetMs(timeZone: string, epochMs: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(new Date(epochMs))) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  const asUtc = wallToUtcMs({
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
    millisecond: 0,
  });
  return asUtc - epochMs;
}

/**
 * The instant at which the wall clock in `timeZone` shows `wall`. A time skipped by a DST change
 * moves forward by the gap and a repeated time takes its first occurrence, as RFC 5545 and
 * Temporal's "compatible" disambiguation do.
 */
export function zonedWallTimeToEpochMs(wall: WallTime, timeZone: string): number {
  const local = wallToUtcMs(wall);
  const before = zoneOffsetMs(timeZone, local - 86_400_000);
  const after = zoneOffsetMs(timeZone, local + 86_400_000);
  // Each offset that reads back to the same wall time is a candidate; the earliest instant wins.
  // (Written out rather than with arrays: this runs for every event the server or CLI checks.)
  const early = local - Math.max(before, after);
  const late = local - Math.min(before, after);
  if (early + zoneOffsetMs(timeZone, early) === local) return early;
  if (late !== early && late + zoneOffsetMs(timeZone, late) === local) return late;
  // In a gap: read the wall time with the offset in force before the change.
  return local - before;
}

/** Whether `name` is an IANA time zone name this runtime knows (not a bare UTC offset). */
export function isIanaTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-]*(\/[A-Za-z0-9_+\-]+)*$/.test(name)) return false;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}
