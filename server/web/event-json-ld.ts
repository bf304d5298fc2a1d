/**
 * schema.org Event for an event page, with what Google's event rich results require (name,
 * startDate, location) and recommend (description, endDate, eventAttendanceMode, eventStatus,
 * image, offers, organizer).
 */
import type { StoredEvent } from "../../shared/api-schemas.ts";
import { displayZone, localIso } from "../events/local-times.ts";
import { httpUrl } from "./safe-url.ts";
import { type Attendance, attendanceOf } from "../db/attendance.ts";

type Json = Record<string, unknown>;

const ATTENDANCE_MODE: Record<Attendance, string> = {
  online: "https://schema.org/OnlineEventAttendanceMode",
  in_person: "https://schema.org/OfflineEventAttendanceMode",
  hybrid: "https://schema.org/MixedEventAttendanceMode",
};

function place(event: StoredEvent): Json {
  const address: Json = { "@type": "PostalAddress" };
  if (event.city) address.addressLocality = event.city;
  if (event.country) address.addressCountry = event.country;
  const placeJson: Json = {
    "@type": "Place",
    name: event.venue_name ??
      ([event.city, event.country].filter(Boolean).join(", ") || "To be announced"),
    address,
  };
  if (event.latitude !== null && event.longitude !== null) {
    placeJson.geo = {
      "@type": "GeoCoordinates",
      latitude: event.latitude,
      longitude: event.longitude,
    };
  }
  return placeJson;
}

function location(event: StoredEvent): Json | Json[] {
  const virtual = { "@type": "VirtualLocation", url: httpUrl(event.source_url) };
  const attendance = attendanceOf(event);
  if (attendance === "hybrid") return [place(event), virtual];
  return attendance === "online" ? virtual : place(event);
}

function offers(event: StoredEvent, pageUrl: string): Json {
  const price = event.is_free ? 0 : (event.price_min ?? event.price_max);
  const offer: Json = {
    "@type": "Offer",
    url: httpUrl(event.source_url) ?? pageUrl,
    priceCurrency: event.currency,
    availability: event.is_sold_out ? "https://schema.org/SoldOut" : "https://schema.org/InStock",
    validFrom: event.created_at,
  };
  if (price !== null) offer.price = price;
  return offer;
}

/** The JSON-LD object of an event page at `pageUrl`. */
export function eventJsonLd(event: StoredEvent, pageUrl: string): Json {
  const zone = displayZone(event.timezone);
  const json: Json = {
    "@context": "https://schema.org",
    "@type": "Event",
    name: event.title,
    startDate: localIso(event.starts_at, zone),
    eventStatus: "https://schema.org/EventScheduled",
    eventAttendanceMode: ATTENDANCE_MODE[attendanceOf(event)],
    location: location(event),
    offers: offers(event, pageUrl),
    url: pageUrl,
  };
  if (event.ends_at) json.endDate = localIso(event.ends_at, zone);
  if (event.description) json.description = event.description;
  const image = httpUrl(event.cover_image_url);
  if (image) json.image = [image];
  if (event.organiser_name) {
    json.organizer = {
      "@type": "Organization",
      name: event.organiser_name,
      ...(httpUrl(event.organiser_url) ? { url: httpUrl(event.organiser_url) } : {}),
    };
  }
  if (event.topics.length > 0) json.keywords = event.topics.join(", ");
  return json;
}

/**
 * JSON for inside <script type="application/ld+json">: `<` escaped so no text a contributor
 * wrote can close the element or open a comment.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
