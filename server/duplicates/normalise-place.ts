/** Places as the matcher compares them: cities and countries in one spelling, distances. */
import { foldText } from "./normalise-title.ts";
import { AMBIGUOUS_CODES, CITY_ALIASES, COUNTRY_ALIASES, US_STATES } from "../matching-names.ts";

// Looked up as Maps: a name from a feed ("Constructor") is never a property of Object.prototype.
const CITY_NAMES = new Map(Object.entries(CITY_ALIASES));
const COUNTRY_NAMES = new Map(Object.entries(COUNTRY_ALIASES));
const KNOWN_CODES = new Set(COUNTRY_NAMES.values());

/** A city in one spelling ("München" and "Munich" alike), or null when there is none. */
export function cityKey(city: string | null | undefined): string | null {
  if (!city) return null;
  // "Austin, TX" and "Zürich, Switzerland": the city is the first part.
  const folded = foldText(city.split(",")[0]);
  if (folded === "" || folded === "online" || folded === "virtual") return null;
  return CITY_NAMES.get(folded) ?? folded;
}

/**
 * A country as a two-letter code when known, else its folded name after a "~"; null when there
 * is none or it may be a US state's code ("CA"). A US state, or a known country at the end,
 * counts ("Illinois USA", "Spain and Online").
 */
export function countryKey(country: string | null | undefined): string | null {
  if (!country) return null;
  const folded = foldText(country.replace(/\s*(\band\b|&|\+)\s*(online|remote)\s*$/i, ""));
  if (folded === "" || AMBIGUOUS_CODES.has(folded)) return null;
  const known = COUNTRY_NAMES.get(folded);
  if (known) return known;
  if (US_STATES.has(folded)) return "us";
  const words = folded.split(" ");
  for (const n of [3, 2, 1]) {
    if (words.length <= n) continue;
    const tail = words.slice(-n).join(" ");
    if (COUNTRY_NAMES.get(tail) && !AMBIGUOUS_CODES.has(tail)) return COUNTRY_NAMES.get(tail)!;
  }
  // Marked, so that an unknown name ("CR" for the Czech Republic) is never taken for a code.
  return `~${folded}`;
}

/** Whether a countryKey is a country the table knows, not a name it merely folded. */
export function isKnownCountry(key: string | null): boolean {
  return key !== null && KNOWN_CODES.has(key);
}

/** A place on the globe, in degrees. */
export type Point = { latitude: number; longitude: number };

/** Great-circle distance in kilometres. */
export function distanceKm(a: Point, b: Point): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}
