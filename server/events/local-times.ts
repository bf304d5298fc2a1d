/**
 * An event's times as its own clock shows them. An event without a zone is shown in UTC, on
 * every surface (the site writes "UTC", MCP's local times end in +00:00): see docs/dates.md.
 */
import { zoneOffsetMs } from "../../shared/zoned-time.ts";

/** The zone an event's times are shown in: its own, or UTC when it has none. */
export function displayZone(timezone: string | null): string {
  return timezone ?? "UTC";
}

/**
 * `iso` (an instant) as wall-clock time in `zone` with its offset, as schema.org and MCP answers
 * give it: 2027-01-14T19:00:00+01:00.
 */
export function localIso(iso: string, zone: string): string {
  const epochMs = Date.parse(iso);
  const offsetMinutes = Math.round(offsetOnDay(zone, epochMs) / 60_000);
  const wall = new Date(epochMs + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${wall}${sign}${hh}:${mm}`;
}

const DAY_MS = 86_400_000;
const MAX_CACHED_DAYS = 50_000;
const dayOffsets = new Map<string, number | null>();

/**
 * zoneOffsetMs, remembered per zone and UTC day: a page of events on scattered dates would
 * otherwise ask Intl for almost every event. A day whose two ends share an offset has that offset
 * throughout (zones change at most once a day); a day with a change is looked up exactly.
 */
function offsetOnDay(timeZone: string, epochMs: number): number {
  const day = Math.floor(epochMs / DAY_MS);
  const key = `${timeZone} ${day}`;
  let offset = dayOffsets.get(key);
  if (offset === undefined) {
    const start = zoneOffsetMs(timeZone, day * DAY_MS);
    offset = start === zoneOffsetMs(timeZone, (day + 1) * DAY_MS - 1) ? start : null;
    if (dayOffsets.size >= MAX_CACHED_DAYS) dayOffsets.clear();
    dayOffsets.set(key, offset);
  }
  return offset ?? zoneOffsetMs(timeZone, epochMs);
}
