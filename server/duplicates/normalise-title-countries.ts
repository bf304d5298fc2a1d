/**
 * The countries titles name, as one code each: "PyCon SK" and "PyCon Slovakia" are one name
 * (normalise-title.ts reads a title's words through this).
 */

// Countries as titles name them, in one spelling: "PyCon SK" and "PyCon Slovakia", "PyCon Italia"
// and "PyCon Italy", "PyConZA" and "PyCon South Africa" (as a code the words run together alike).
// Codes that are also common words ("in", "it", "at", "de") are not read as countries.
const TITLE_COUNTRIES: Record<string, string> = {
  "south africa": "za",
  "new zealand": "nz",
  "united kingdom": "uk",
  "great britain": "uk",
  "united states": "us",
  "czech republic": "cz",
  "south korea": "kr",
  "hong kong": "hk",
  "latin america": "latam",
  "asia pacific": "apac",
  usa: "us",
  slovakia: "sk",
  taiwan: "tw",
  lithuania: "lt",
  czechia: "cz",
  czech: "cz",
  italy: "it",
  italia: "it",
  australia: "au",
  poland: "pl",
  polska: "pl",
  romania: "ro",
  hungary: "hu",
  greece: "gr",
  hellas: "gr",
  kenya: "ke",
  nigeria: "ng",
  philippines: "ph",
  singapore: "sg",
  korea: "kr",
  japan: "jp",
  china: "cn",
  brazil: "br",
  brasil: "br",
  mexico: "mx",
  chile: "cl",
  estonia: "ee",
  latvia: "lv",
  slovenia: "si",
  croatia: "hr",
  serbia: "rs",
  bulgaria: "bg",
  ukraine: "ua",
  turkey: "tr",
  turkiye: "tr",
  france: "fr",
  switzerland: "ch",
  denmark: "dk",
  finland: "fi",
  portugal: "pt",
  ireland: "ie",
  netherlands: "nl",
  sweden: "se",
  spain: "es",
  espana: "es",
  germany: "de",
  deutschland: "de",
  india: "in",
  canada: "ca",
  colombia: "co",
  argentina: "ar",
  israel: "il",
  austria: "at",
  belgium: "be",
  norway: "no",
  sk: "sk",
  tw: "tw",
  lt: "lt",
  cz: "cz",
  za: "za",
  au: "au",
  nz: "nz",
  uk: "uk",
  pl: "pl",
  ro: "ro",
  hu: "hu",
  gr: "gr",
  ke: "ke",
  ng: "ng",
  ph: "ph",
  sg: "sg",
  kr: "kr",
  jp: "jp",
  br: "br",
  mx: "mx",
  ee: "ee",
  hr: "hr",
  rs: "rs",
  bg: "bg",
  ua: "ua",
  tr: "tr",
  fr: "fr",
  ch: "ch",
  dk: "dk",
  fi: "fi",
  pt: "pt",
  ie: "ie",
  nl: "nl",
  latam: "latam",
  apac: "apac",
};

// The first words of the two-word names: only after one of them is a pair of words looked up.
const FIRSTS_OF_TWO = new Set(
  Object.keys(TITLE_COUNTRIES).filter((k) => k.includes(" ")).map((k) => k.split(" ")[0]),
);

// TITLE_COUNTRIES as a Map: a word fresh from a title is looked up by its hash, and a word such
// as "constructor" is never read as a property of Object.prototype.
const TITLE_COUNTRY_CODES = new Map(Object.entries(TITLE_COUNTRIES));

/** The words (folded, none empty) with the countries they name as codes. */
export function countriesAsCodes(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const two = i + 1 < words.length && FIRSTS_OF_TWO.has(words[i])
      ? TITLE_COUNTRY_CODES.get(`${words[i]} ${words[i + 1]}`)
      : undefined;
    if (two) {
      out.push(two);
      i++;
    } else out.push(TITLE_COUNTRY_CODES.get(words[i]) ?? words[i]);
  }
  return out;
}
