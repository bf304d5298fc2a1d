/**
 * Events as an iCalendar (RFC 5545) document: times in UTC (no VTIMEZONE needed), text escaped,
 * lines folded at 75 octets without splitting a character, CRLF line ends.
 */
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import { compactUtc, placeLine } from "../calendar-links.ts";
import { httpUrl } from "../safe-url.ts";
import { escapeIcalText } from "./feed-text.ts";

const encoder = new TextEncoder();

/** Folds a content line: at most 75 octets per line, continuation lines start with a space. */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // The first line holds 75 octets; continuations 74 after their leading space.
    const room = parts.length === 0 ? 75 : 74;
    if (octets + size > room) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/** One event as a VEVENT's unfolded lines. */
export function eventLines(event: StoredEvent, origin: string): string[] {
  const host = new URL(origin).host;
  const pageUrl = `${origin}/events/${event.id}`;
  const description = [event.description, `Details: ${pageUrl}`].filter(Boolean).join("\n\n");
  const lines = [
    "BEGIN:VEVENT",
    `UID:${event.id}@${host}`,
    `DTSTAMP:${compactUtc(event.updated_at)}`,
    `DTSTART:${compactUtc(event.starts_at)}`,
    ...(event.ends_at ? [`DTEND:${compactUtc(event.ends_at)}`] : []),
    `SUMMARY:${escapeIcalText(event.title)}`,
    `DESCRIPTION:${escapeIcalText(description)}`,
    `URL:${pageUrl}`,
    `CREATED:${compactUtc(event.created_at)}`,
    `LAST-MODIFIED:${compactUtc(event.updated_at)}`,
    "STATUS:CONFIRMED",
  ];
  const place = placeLine(event) || (event.is_virtual ? httpUrl(event.source_url) ?? "" : "");
  if (place) lines.push(`LOCATION:${escapeIcalText(place)}`);
  if (event.latitude !== null && event.longitude !== null) {
    lines.push(`GEO:${event.latitude};${event.longitude}`);
  }
  if (event.topics.length > 0) {
    lines.push(`CATEGORIES:${event.topics.map(escapeIcalText).join(",")}`);
  }
  lines.push("END:VEVENT");
  return lines;
}

/** A whole calendar of `events`; `name` becomes the calendar's display name. */
export function calendarOf(
  events: StoredEvent[],
  options: { origin: string; name: string },
): string {
  return calendarDocument(
    events.map((event) => eventLines(event, options.origin)),
    options.name,
  );
}

/** A calendar holding the given VEVENTs (each its unfolded lines), named `name`. */
export function calendarDocument(vevents: string[][], name: string): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Tech events//Event site//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeIcalText(name)}`,
    // How often subscribers should fetch again (RFC 7986, and the older Microsoft name).
    "REFRESH-INTERVAL;VALUE=DURATION:PT1H",
    "X-PUBLISHED-TTL:PT1H",
    ...vevents.flat(),
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join("\r\n") + "\r\n";
}
