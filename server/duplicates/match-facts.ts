/** What the matcher knows of an event: its normalised title, time, place and address. */
import { acronymWords, coreOfCompact, otherNames, titleParts } from "./normalise-title.ts";
import { cityKey, countryKey, type Point } from "./normalise-place.ts";
import { addressKeys } from "./normalise-url.ts";
import type { MatchRow } from "../db/match-keys.ts";

/** The fields of an event the matcher reads (a pushed event's times are still text). */
export type MatchSource = Omit<MatchRow, "starts_at" | "ends_at"> & {
  starts_at: Date | string;
  ends_at: Date | string | null;
};

/** A title, or another name it gives, as the matcher compares it. */
export interface TitleView {
  words: string[];
  compact: string;
  /** The compact title without a "conf" run into it ("reactconf" is "react"). */
  core: string;
  /** Every word but years, for acronyms: "PNSQC" spells "conference" too. */
  spelled: string[];
  /** The words written as acronyms, and the letters they abbreviate ("scale": "scle"). */
  acronyms: Acronym[];
}

/** A word of a title written as an acronym, and its capitals ("SCaLE": "scale", "scle"). */
export type Acronym = { word: string; letters: string };

/** A view of `words` (and the words an acronym of it may spell). */
export function titleView(words: string[], spelled: string[], acronyms: Acronym[]): TitleView {
  const compact = words.join("");
  return {
    words,
    compact,
    core: coreOfCompact(compact),
    spelled,
    // Most titles have none: no array to filter.
    acronyms: acronyms.length === 0 ? [] : acronyms.filter((a) => words.includes(a.word)),
  };
}

/** An event normalised for matching: its title's view, its other names, time, place, address. */
export interface MatchFacts extends TitleView {
  id: string;
  /** The other names the title gives ("(PNSQC)", the name before a tagline). */
  aliases: TitleView[];
  /** Start and end (the start when none) in epoch milliseconds. */
  start: number;
  end: number;
  city: string | null;
  country: string | null;
  point: Point | null;
  /** Online only: no place to compare. */
  online: boolean;
  url: string | null;
  site: string | null;
}

const epoch = (v: Date | string) => (v instanceof Date ? v.getTime() : Date.parse(v));

/** Normalises an event for the matcher. */
export function matchFactsOf(e: MatchSource): MatchFacts {
  const start = epoch(e.starts_at);
  const end = e.ends_at === null ? start : Math.max(start, epoch(e.ends_at));
  const city = cityKey(e.city);
  const { words, spelled } = titleParts(e.title);
  const address = addressKeys(e.source_url);
  // Only an acronym that is one of the title's words: "USA" is the country code "us".
  const acronyms = acronymWords(e.title).filter((a) => words.includes(a.word));
  return {
    id: e.id,
    ...titleView(words, spelled, acronyms),
    aliases: otherNames(e.title, words.length).map((n) => titleView(n, n, acronyms)),
    start,
    end,
    city,
    country: countryKey(e.country),
    point: e.latitude !== null && e.longitude !== null
      ? { latitude: e.latitude, longitude: e.longitude }
      : null,
    online: e.is_virtual && !e.is_hybrid && city === null,
    url: address.url,
    site: address.site,
  };
}
