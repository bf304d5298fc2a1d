/** Turns ical.js times into the API's UTC instants and IANA zones. */
import ICAL from "ical.js";
import { zonedWallTimeToEpochMs } from "../../shared/zoned-time.ts";
import { resolveTimeZone } from "./resolve-time-zone.ts";
import { coversYear, type ZoneYears } from "./ics-zone-definitions.ts";

type Time = InstanceType<typeof ICAL.Time>;

/** Where a time came from: its value and the TZID parameter of its property, if any. */
export interface IcsTime {
  time: Time;
  tzid: string | null;
}

/** A resolved time: the UTC instant and the IANA zone it was written in, when known. */
export type Instant =
  | { ok: true; epochMs: number; zone: string | null }
  | { ok: false; message: string };

function wallOf(t: Time, midnight: boolean) {
  return {
    year: t.year,
    month: t.month,
    day: t.day,
    hour: midnight ? 0 : t.hour,
    minute: midnight ? 0 : t.minute,
    second: midnight ? 0 : t.second,
    millisecond: 0,
  };
}

// No years: every zoned time is converted from the IANA data.
const NO_ZONE_YEARS: ZoneYears = { from: 0, until: -1 };

/**
 * The instant of `t`. A date (all-day) means midnight in its zone, or in `defaultZone`, or in UTC;
 * a floating time is read in `defaultZone` and is an error without one.
 */
export function instantOf(
  { time, tzid }: IcsTime,
  defaultZone: string | null,
  property: string,
  zoneYears: ZoneYears = NO_ZONE_YEARS,
): Instant {
  if (time.isDate) {
    const zone = (tzid === null ? null : resolveTimeZone(tzid)) ?? defaultZone;
    const wall = wallOf(time, true);
    if (zone === null) {
      return { ok: true, epochMs: Date.UTC(wall.year, wall.month - 1, wall.day), zone: null };
    }
    return { ok: true, epochMs: zonedWallTimeToEpochMs(wall, zone), zone };
  }
  if (time.zone === ICAL.Timezone.utcTimezone) {
    return { ok: true, epochMs: time.toUnixTime() * 1000, zone: defaultZone };
  }
  if (tzid !== null) {
    const zone = resolveTimeZone(tzid);
    if (zone !== null) {
      // Within the years the calendar's VTIMEZONEs were built for (from the same IANA data),
      // ical.js converts from its cached offsets, far faster than asking Intl each time.
      const epochMs =
        time.zone && time.zone !== ICAL.Timezone.localTimezone && coversYear(zoneYears, time.year)
          ? time.toUnixTime() * 1000
          : zonedWallTimeToEpochMs(wallOf(time, false), zone);
      return { ok: true, epochMs, zone };
    }
    if (time.zone && time.zone !== ICAL.Timezone.localTimezone) {
      // A zone only the calendar defines (such as "Customized Time Zone"): trust its VTIMEZONE.
      return { ok: true, epochMs: time.toUnixTime() * 1000, zone: null };
    }
    return {
      ok: false,
      message:
        `${property} uses TZID ${JSON.stringify(tzid)}, which the calendar does not define (no ` +
        `VTIMEZONE) and which is not a known time zone name`,
    };
  }
  if (defaultZone !== null) {
    return {
      ok: true,
      epochMs: zonedWallTimeToEpochMs(wallOf(time, false), defaultZone),
      zone: defaultZone,
    };
  }
  return {
    ok: false,
    message: `${property} ${time.toString()} is a floating local time (no TZID, no Z) and the ` +
      `calendar names no zone (X-WR-TIMEZONE): pass --timezone with the zone it is in`,
  };
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/**
 * The stable suffix that tells one occurrence of a series from another: the occurrence's original
 * start, as a date for all-day series and a UTC date-time otherwise.
 */
export function occurrenceStamp(time: Time, epochMs: number): string {
  if (time.isDate) return `${pad(time.year, 4)}${pad(time.month)}${pad(time.day)}`;
  const d = new Date(epochMs);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${
    pad(d.getUTCHours())
  }${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
}
