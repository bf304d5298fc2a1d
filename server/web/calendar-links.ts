/** Links out of an event page: Google Calendar's "add event" form and an OpenStreetMap map. */
import type { StoredEvent } from "../../shared/api-schemas.ts";

/** 20270114T180000Z: the UTC form Google Calendar and iCalendar take. */
export function compactUtc(iso: string): string {
  return new Date(iso).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/** Where the event takes place, as one line: venue, city, country. */
export function placeLine(event: StoredEvent): string {
  return [event.venue_name, event.city, event.country].filter(Boolean).join(", ");
}

/** Google Calendar's template link, filled with the event; the end is the start when unknown. */
export function googleCalendarUrl(event: StoredEvent, pageUrl: string): string {
  const params = new URLSearchParams({
    action: "TEMPLATE",
    text: event.title,
    dates: `${compactUtc(event.starts_at)}/${compactUtc(event.ends_at ?? event.starts_at)}`,
    details: `${pageUrl}\n\n${(event.description ?? "").slice(0, 1500)}`.trim(),
  });
  const place = placeLine(event);
  if (place) params.set("location", place);
  if (event.timezone) params.set("ctz", event.timezone);
  return `https://calendar.google.com/calendar/render?${params}`;
}

/** An OpenStreetMap map with a marker at the event's coordinates, or null without them. */
export function openStreetMapUrl(event: StoredEvent): string | null {
  if (event.latitude === null || event.longitude === null) return null;
  const lat = event.latitude.toFixed(5);
  const lon = event.longitude.toFixed(5);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`;
}
