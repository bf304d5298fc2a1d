/** Places as the matcher compares them: cities and countries in one spelling, distances. */
import { foldText } from "./normalise-title.ts";

// Other names of the same city or country that listings use; the key is the folded spelling.
const CITY_ALIASES: Record<string, string> = {
  "nyc": "new york",
  "new york city": "new york",
  "sf": "san francisco",
  "munchen": "munich",
  "koln": "cologne",
  "wien": "vienna",
  "praha": "prague",
  "lisboa": "lisbon",
  "bruxelles": "brussels",
  "brussel": "brussels",
  "warszawa": "warsaw",
  "krakow": "krakow",
  "cracow": "krakow",
  "zurich": "zurich",
  "geneve": "geneva",
  "roma": "rome",
  "milano": "milan",
  "torino": "turin",
  "firenze": "florence",
  "napoli": "naples",
  "kobenhavn": "copenhagen",
  "goteborg": "gothenburg",
  "den haag": "the hague",
  "s gravenhage": "the hague",
  "bengaluru": "bangalore",
  "washington dc": "washington",
  "washington d c": "washington",
  "frankfurt am main": "frankfurt",
  "wroclaw": "wroclaw",
  "bucuresti": "bucharest",
  "sao paulo": "sao paulo",
  "kyiv": "kyiv",
  "kiev": "kyiv",
  "mumbai": "mumbai",
  "bombay": "mumbai",
};

const COUNTRY_ALIASES: Record<string, string> = {
  "us": "us",
  "usa": "us",
  "u s": "us",
  "u s a": "us",
  "united states": "us",
  "united states of america": "us",
  "america": "us",
  "uk": "gb",
  "gb": "gb",
  "u k": "gb",
  "united kingdom": "gb",
  "great britain": "gb",
  "england": "gb",
  "scotland": "gb",
  "wales": "gb",
  "northern ireland": "gb",
  "de": "de",
  "germany": "de",
  "deutschland": "de",
  "fr": "fr",
  "france": "fr",
  "nl": "nl",
  "netherlands": "nl",
  "the netherlands": "nl",
  "holland": "nl",
  "es": "es",
  "spain": "es",
  "espana": "es",
  "it": "it",
  "italy": "it",
  "italia": "it",
  "ch": "ch",
  "switzerland": "ch",
  "schweiz": "ch",
  "suisse": "ch",
  "at": "at",
  "austria": "at",
  "be": "be",
  "belgium": "be",
  "pl": "pl",
  "poland": "pl",
  "polska": "pl",
  "cz": "cz",
  "czechia": "cz",
  "czech republic": "cz",
  "se": "se",
  "sweden": "se",
  "no": "no",
  "norway": "no",
  "dk": "dk",
  "denmark": "dk",
  "fi": "fi",
  "finland": "fi",
  "pt": "pt",
  "portugal": "pt",
  "ie": "ie",
  "ireland": "ie",
  "ca": "ca",
  "canada": "ca",
  "au": "au",
  "australia": "au",
  "in": "in",
  "india": "in",
  "jp": "jp",
  "japan": "jp",
  "br": "br",
  "brazil": "br",
  "brasil": "br",
  "mx": "mx",
  "mexico": "mx",
  "ar": "ar",
  "argentina": "ar",
  "nz": "nz",
  "new zealand": "nz",
  "sg": "sg",
  "singapore": "sg",
  "ae": "ae",
  "uae": "ae",
  "united arab emirates": "ae",
  "kr": "kr",
  "south korea": "kr",
  "korea": "kr",
  "cn": "cn",
  "china": "cn",
  "tw": "tw",
  "taiwan": "tw",
  "ua": "ua",
  "ukraine": "ua",
  "ro": "ro",
  "romania": "ro",
  "hu": "hu",
  "hungary": "hu",
  "gr": "gr",
  "greece": "gr",
  "tr": "tr",
  "turkey": "tr",
  "turkiye": "tr",
  "il": "il",
  "israel": "il",
  "za": "za",
  "south africa": "za",
  "ng": "ng",
  "nigeria": "ng",
  "ke": "ke",
  "kenya": "ke",
  "lt": "lt",
  "lithuania": "lt",
  "lv": "lv",
  "latvia": "lv",
  "ee": "ee",
  "estonia": "ee",
  "sk": "sk",
  "slovakia": "sk",
  "si": "si",
  "slovenia": "si",
  "hr": "hr",
  "croatia": "hr",
  "rs": "rs",
  "serbia": "rs",
  "bg": "bg",
  "bulgaria": "bg",
  "co": "co",
  "colombia": "co",
  "cl": "cl",
  "chile": "cl",
  "pe": "pe",
  "peru": "pe",
  "ph": "ph",
  "philippines": "ph",
  "id": "id",
  "indonesia": "id",
  "my": "my",
  "malaysia": "my",
  "th": "th",
  "thailand": "th",
  "vn": "vn",
  "vietnam": "vn",
  "lu": "lu",
  "luxembourg": "lu",
  "is": "is",
  "iceland": "is",
  "ru": "ru",
  "russia": "ru",
  "russian federation": "ru",
  "by": "by",
  "belarus": "by",
  "ge": "ge",
  "am": "am",
  "armenia": "am",
  "az": "az",
  "azerbaijan": "az",
  "kz": "kz",
  "kazakhstan": "kz",
  "ir": "ir",
  "iran": "ir",
  "pk": "pk",
  "pakistan": "pk",
  "bd": "bd",
  "bangladesh": "bd",
  "lk": "lk",
  "sri lanka": "lk",
  "np": "np",
  "nepal": "np",
  "hk": "hk",
  "hong kong": "hk",
  "sa": "sa",
  "saudi arabia": "sa",
  "qa": "qa",
  "qatar": "qa",
  "jo": "jo",
  "jordan": "jo",
  "lb": "lb",
  "lebanon": "lb",
  "eg": "eg",
  "egypt": "eg",
  "morocco": "ma",
  "tunisia": "tn",
  "dz": "dz",
  "algeria": "dz",
  "gh": "gh",
  "ghana": "gh",
  "ug": "ug",
  "uganda": "ug",
  "tz": "tz",
  "tanzania": "tz",
  "rw": "rw",
  "rwanda": "rw",
  "et": "et",
  "ethiopia": "et",
  "sn": "sn",
  "senegal": "sn",
  "cm": "cm",
  "cameroon": "cm",
  "zw": "zw",
  "zimbabwe": "zw",
  "zm": "zm",
  "zambia": "zm",
  "na": "na",
  "namibia": "na",
  "bw": "bw",
  "botswana": "bw",
  "cy": "cy",
  "cyprus": "cy",
  "malta": "mt",
  "ba": "ba",
  "bosnia and herzegovina": "ba",
  "mk": "mk",
  "north macedonia": "mk",
  "macedonia": "mk",
  "albania": "al",
  "montenegro": "me",
  "moldova": "md",
  "uy": "uy",
  "uruguay": "uy",
  "ec": "ec",
  "ecuador": "ec",
  "bo": "bo",
  "bolivia": "bo",
  "ve": "ve",
  "venezuela": "ve",
  // Not "CR": lists write it for the Czech Republic as well.
  "costa rica": "cr",
  "gt": "gt",
  "guatemala": "gt",
  "do": "do",
  "dominican republic": "do",
  "pr": "pr",
  "puerto rico": "pr",
  "panama": "pa",
};

// A country code that is also a US state's ("CA", "DE", "IN", "GA"): "Berkeley, CA" is in the
// United States, "Berlin, DE" in Germany. Such a code alone says nothing.
const AMBIGUOUS_CODES = new Set([
  "al",
  "ar",
  "ca",
  "co",
  "de",
  "ga",
  "id",
  "il",
  "in",
  "la",
  "ma",
  "md",
  "me",
  "mn",
  "ms",
  "mt",
  "ne",
  "nc",
  "pa",
  "sc",
  "sd",
  "tn",
  "va",
]);

// US states, by name and code: lists write "Austin, TX" or "Chicago, Illinois USA".
const US_STATES = new Set([
  "alabama",
  "alaska",
  "arizona",
  "arkansas",
  "california",
  "colorado",
  "connecticut",
  "delaware",
  "florida",
  "georgia",
  "hawaii",
  "idaho",
  "illinois",
  "indiana",
  "iowa",
  "kansas",
  "kentucky",
  "louisiana",
  "maine",
  "maryland",
  "massachusetts",
  "michigan",
  "minnesota",
  "mississippi",
  "missouri",
  "montana",
  "nebraska",
  "nevada",
  "new hampshire",
  "new jersey",
  "new mexico",
  "new york",
  "north carolina",
  "north dakota",
  "ohio",
  "oklahoma",
  "oregon",
  "pennsylvania",
  "rhode island",
  "south carolina",
  "south dakota",
  "tennessee",
  "texas",
  "utah",
  "vermont",
  "virginia",
  "washington",
  "west virginia",
  "wisconsin",
  "wyoming",
  "district of columbia",
  "ak",
  "az",
  "ar",
  "ct",
  "fl",
  "hi",
  "ia",
  "ks",
  "ky",
  "mi",
  "mo",
  "nh",
  "nj",
  "nm",
  "ny",
  "nd",
  "oh",
  "ok",
  "or",
  "ri",
  "tx",
  "ut",
  "vt",
  "wa",
  "wv",
  "wi",
  "wy",
  "dc",
  "d c",
]);

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
