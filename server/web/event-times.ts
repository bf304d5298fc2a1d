/** How the site writes an event's times: in the event's own zone, with its abbreviation. */
import { displayZone, localIso } from "../events/local-times.ts";

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
