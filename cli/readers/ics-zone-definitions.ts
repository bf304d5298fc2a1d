/**
 * VTIMEZONE definitions built from the runtime's IANA data. ical.js resolves a TZID only through a
 * VTIMEZONE, and many real feeds name a zone without defining it (or define it with outdated rules),
 * so recurrence limits (UNTIL) and EXDATEs would otherwise be compared in the wrong offset.
 */
import { zoneOffsetMs } from "../../shared/zoned-time.ts";

type JCal = [string, unknown[], unknown[]];

/**
 * The years (inclusive) the VTIMEZONEs built from IANA data cover: only within them may a time's
 * ical.js zone be trusted, since past the last definition ical.js keeps the last offset for ever.
 */
export interface ZoneYears {
  from: number;
  until: number;
}

/** Whether `year` lies within the years the built definitions cover. */
export function coversYear(years: ZoneYears, year: number): boolean {
  return year >= years.from && year <= years.until;
}

const DAY_MS = 86_400_000;
// No zone changes its offset and back within a week, so weekly probes find every change.
const STEP_MS = 7 * DAY_MS;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

function utcOffset(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function localDateTime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${
    pad(d.getUTCHours())
  }:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

function observance(kind: string, start: string, fromMs: number, toMs: number): JCal {
  return [kind, [
    ["dtstart", {}, "date-time", start],
    ["tzoffsetfrom", {}, "utc-offset", utcOffset(fromMs)],
    ["tzoffsetto", {}, "utc-offset", utcOffset(toMs)],
  ], []];
}

/** The first instant in (lo, hi] at which `zone` no longer has offset `before`. */
function findChange(zone: string, lo: number, hi: number, before: number): number {
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (zoneOffsetMs(zone, mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** A jCal VTIMEZONE named `tzid` with every offset change of IANA `zone` in the given years. */
export function vtimezoneFor(tzid: string, zone: string, years: ZoneYears): JCal {
  const start = Date.UTC(years.from, 0, 1);
  const end = Date.UTC(years.until + 1, 0, 1);
  let offset = zoneOffsetMs(zone, start);
  const observances: JCal[] = [observance("standard", "1601-01-01T00:00:00", offset, offset)];
  for (let t = start + STEP_MS; t <= end; t += STEP_MS) {
    const next = zoneOffsetMs(zone, t);
    if (next === offset) continue;
    const change = findChange(zone, t - STEP_MS, t, offset);
    // Observance starts are written in the wall time of the offset in force before the change.
    observances.push(
      observance(
        next > offset ? "daylight" : "standard",
        localDateTime(change + offset),
        offset,
        next,
      ),
    );
    offset = next;
  }
  return ["vtimezone", [["tzid", {}, "text", tzid]], observances];
}
