/** Places as the matcher compares them: cities and countries in one spelling, distances. */
import { foldText } from "./normalise-title.ts";
import {
  AMBIGUOUS_CODES,
  CITY_ALIASES,
  COUNTRY_ALIASES,
  US_STATES,
} from "../data/matching-names.ts";

// Looked up as Maps: a name from a feed ("Constructor") is never a property of Object.prototype.
const CITY_NAMES = new Map(Object.entries(CITY_ALIASES));
const COUNTRY_NAMES = new Map(Object.entries(COUNTRY_ALIASES));
const KNOWN_CODES = new Set(COUNTRY_NAMES.values());

// Listings name a few thousand places, each thousands of times: each spelling is folded once.
// Bounded (emptied when full) so that a stream of odd names cannot grow it.
const PLACES_REMEMBERED = 4096;
const cityKeys = new Map<string, string | null>();
const countryKeys = new Map<string, string | null>();

function remembered(
  memo: Map<string, string | null>,
  text: string,
  fold: (text: string) => string | null,
): string | null {
  const known = memo.get(text);
  if (known !== undefined) return known;
  const key = fold(text);
  if (memo.size >= PLACES_REMEMBERED) memo.clear();
  memo.set(text, key);
  return key;
}

/** A city in one spelling ("München" and "Munich" alike), or null when there is none. */
export function cityKey(city: string | null | undefined): string | null {
  if (!city) return null;
  return remembered(cityKeys, city, foldCity);
}

function foldCity(city: string): string | null {
  // "Austin, TX" and "Zürich, Switzerland": the city is the first part.
  const folded = foldText(city.split(",")[0]);
  if (folded === "" || folded === "online" || folded === "virtual") return null;
  return CITY_NAMES.get(folded) ?? folded;
}

/**
 * A country as a two-letter code when known, else its folded name after a "~"; null when there is none or
 * when it cannot be told from a US state ("CA"). A US state stands for the United States, and a
 * known country at the end counts ("Illinois USA", "Washington, D.C. USA", "Spain and Online").
 */
export function countryKey(country: string | null | undefined): string | null {
  if (!country) return null;
  return remembered(countryKeys, country, foldCountry);
}

function foldCountry(country: string): string | null {
  const lower = country.toLowerCase();
  // The pattern only where its last word can be.
  const place = lower.includes("online") || lower.includes("remote")
    ? country.replace(/\s*(\band\b|&|\+)\s*(online|remote)\s*$/i, "")
    : country;
  const folded = foldText(place);
  if (folded === "") return null;
  if (AMBIGUOUS_CODES.has(folded)) return null;
  const known = COUNTRY_NAMES.get(folded);
  if (known) return known;
  if (US_STATES.has(folded)) return "us";
  const words = folded.split(" ");
  for (const n of [3, 2, 1]) {
    if (words.length <= n) continue;
    const tail = COUNTRY_NAMES.get(words.slice(-n).join(" "));
    if (tail && !AMBIGUOUS_CODES.has(words.slice(-n).join(" "))) return tail;
  }
  // Marked, so that an unknown name ("CR" for the Czech Republic) is never taken for a code.
  return `~${folded}`;
}

/** Whether a countryKey is a country the table knows, not a name it merely folded. */
export function isKnownCountry(key: string | null): boolean {
  return key !== null && KNOWN_CODES.has(key);
}

/** Great-circle distance in kilometres. */
export function distanceKm(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}
