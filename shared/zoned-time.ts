/**
 * Date-time parsing for event times: ISO 8601 with an offset, or a local wall-clock time read in
 * an IANA zone. Shared by the server's validation and the CLI's readers.
 */

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

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

/** The result of reading a date-time string: either an instant, a wall time, or a problem. */
export type ParsedDateTime =
  | { kind: "instant"; epochMs: number }
  | { kind: "local"; wall: WallTime }
  | { kind: "invalid"; reason: "date_only" | "format" | "calendar" };

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
  const offset = m[8];
  if (offset === undefined) return { kind: "local", wall };
  return { kind: "instant", epochMs: wallToUtcMs(wall) - offsetMinutes(offset) * 60_000 };
}

function offsetMinutes(offset: string): number {
  if (offset.toUpperCase() === "Z") return 0;
  const sign = offset[0] === "-" ? -1 : 1;
  const digits = offset.slice(1).replace(":", "");
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || "0"));
}

function wallToUtcMs(w: WallTime): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond);
}

function isRealWallTime(w: WallTime): boolean {
  if (w.hour > 23 || w.minute > 59 || w.second > 59) return false;
  const d = new Date(wallToUtcMs(w));
  return d.getUTCFullYear() === w.year && d.getUTCMonth() === w.month - 1 &&
    d.getUTCDate() === w.day;
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
  const asUtc = Date.UTC(
    parts.year,
    parts.month - 1,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second,
  );
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
