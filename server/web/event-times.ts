/** How the site writes an event's times: in the event's own zone, with its abbreviation. */
import { zoneOffsetMs } from "../../shared/zoned-time.ts";

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(zone: string, withDate: boolean): Intl.DateTimeFormat {
  const key = `${zone}|${withDate}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      ...(withDate ? { weekday: "short", day: "numeric", month: "short", year: "numeric" } : {}),
      hour: "2-digit",
      minute: "2-digit",
      timeZone: zone,
      timeZoneName: "short",
    });
    // A cache keyed by zone: there are a few hundred zones at most.
    formats.set(key, format);
  }
  return format;
}

/** The zone an event's times are shown in: its own, or UTC when it has none. */
export function displayZone(timezone: string | null): string {
  return timezone ?? "UTC";
}

/** "Thu, 14 Jan 2027, 19:00 CET" in the event's zone. */
export function formatEventTime(iso: string, timezone: string | null): string {
  return formatFor(displayZone(timezone), true).format(new Date(iso));
}

/** The start, and the end (only its time when on the same local day). */
export function formatEventSpan(
  startIso: string,
  endIso: string | null,
  timezone: string | null,
): string {
  const start = formatEventTime(startIso, timezone);
  if (!endIso) return start;
  const zone = displayZone(timezone);
  const sameDay = localDate(startIso, zone) === localDate(endIso, zone);
  const end = sameDay
    ? formatFor(zone, false).format(new Date(endIso))
    : formatEventTime(endIso, timezone);
  return `${start} – ${end}`;
}

/** YYYY-MM-DD of an instant in a zone. */
export function localDate(iso: string, zone: string): string {
  return localIso(iso, zone).slice(0, 10);
}

/** ISO 8601 in the event's zone with its offset, as schema.org recommends: 2027-01-14T19:00:00+01:00. */
export function localIso(iso: string, zone: string): string {
  const epoch = Date.parse(iso);
  const offset = zoneOffsetMs(zone, epoch);
  const wall = new Date(epoch + offset).toISOString().slice(0, 19);
  const sign = offset < 0 ? "-" : "+";
  const minutes = Math.round(Math.abs(offset) / 60_000);
  const hh = String(Math.floor(minutes / 60)).padStart(2, "0");
  const mm = String(minutes % 60).padStart(2, "0");
  return `${wall}${sign}${hh}:${mm}`;
}

const instantFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

/** "23 Nov 2026, 00:10 UTC": a moment of the service's own records. */
export function formatInstant(value: Date | string): string {
  return instantFormat.format(typeof value === "string" ? new Date(value) : value);
}
