/**
 * The keys candidates are looked up by. Two listings of one event take place within 60 hours of
 * each other and share two naming words of their titles, or a one-word title's word, or their
 * own site, or their address, or one is an acronym of the other (whose initials are its key).
 * Each listing stores those keys (hashed to 53 bits) with its days, and looks them up over the
 * days its candidate window reaches (server/db/match-keys.ts).
 */
import type { CandidateBounds, DaySpan } from "../db/match-keys.ts";
import type { MatchFacts } from "./match-facts.ts";
import { initialsOf } from "./normalise-title.ts";
import { KIND_WORDS } from "../matching-names.ts";

const DAY = 86_400_000;
// Bound the days a long listing stores and looks up its keys over.
const MAX_DAYS = 16;
// Three words carry a title's name: a fourth's pairs were 7% of the stored keys on the labelled
// lists and 14-22% on the benchmark's titles, and found no labelled pair the others missed.
const MAX_WORDS = 3;

/**
 * The words keys are made of: the title's first three naming words, then its kind words
 * (KIND_WORDS: a pair of two of them is shared by dozens of listings a week). A pair holds a
 * naming word, and a kind word pairs only with the first naming word ("Rust Nation Summit" and
 * "Rust Summit" share "rust summit"; "Rust User Group Oslo" and "Go User Group Oslo" nothing).
 */
function keyWords(f: MatchFacts): string[] {
  const naming: string[] = [];
  const kinds: string[] = [];
  for (const w of f.words) {
    if (naming.includes(w) || kinds.includes(w)) continue;
    if (KIND_WORDS.has(w)) kinds.push(w);
    else naming.push(w);
  }
  return naming.concat(kinds).slice(0, MAX_WORDS);
}

function pairKeys(words: string[]): string[] {
  const keys: string[] = [];
  // A title of kind words only ("Hackathon Night") pairs them all.
  const kind = (w: string) => KIND_WORDS.has(w) && !KIND_WORDS.has(words[0]);
  for (let i = 0; i < words.length; i++) {
    for (let j = i + 1; j < words.length; j++) {
      if (kind(words[j]) && i > 0) continue;
      const [a, b] = words[i] < words[j] ? [words[i], words[j]] : [words[j], words[i]];
      keys.push(`w:${a}+${b}`);
    }
  }
  return keys;
}

/** A listing's keys: those both sides hold, around the one-word keys of each side. */
function keysOf(f: MatchFacts, side: "stored" | "probe"): number[] {
  const words = keyWords(f);
  const texts = pairKeys(words);
  // A one-word title ("React") stores its word and finds the titles that start with it ("React
  // Summit"); a longer title finds the one-word title of its first word (looking up each of its
  // words cost a third of all lookups and found no labelled pair more).
  if (words.length === 1) {
    texts.push(`o:${words[0]}`, ...(side === "probe" ? [`h:${words[0]}`] : []));
  } else if (words.length > 1) texts.push(side === "stored" ? `h:${words[0]}` : `o:${words[0]}`);
  // The words run together: "XtremePython" and "Xtreme Python", "DevOps Days".
  if (f.compact.length > 0) texts.push(`c:${f.compact}`);
  // An acronym and the words it abbreviates ("SCaLE", "Southern California Linux Expo").
  texts.push(...acronymKeys(f));
  // The same address is the same site: the address only where there is no site.
  if (f.site) texts.push(`s:${f.site}`);
  else if (f.url) texts.push(`u:${f.url}`);
  return [...new Set(texts.map(hash53))];
}

// Words an acronym leaves out: "ICSE" is the International Conference on Software Engineering.
const SKIPPED = new Set("the a an of and in on at for by to de la le el der".split(" "));
// Shorter initials are shared by too many titles to be worth a lookup.
const MIN_LETTERS = 3;
const MAX_LETTERS = 12;

/** The initials of `words`, and their acronyms' capitals in their place ("KCD Munich": "kcdm"). */
function initials(words: string[], f: MatchFacts): string[] {
  const expanded = f.acronyms.some((a) => words.includes(a.word))
    ? [words.map((w) => f.acronyms.find((a) => a.word === w)?.letters ?? w[0]).join("")]
    : [];
  return [initialsOf(words), ...expanded];
}

/**
 * The initials of `f`'s title as `a:` keys, the words acronyms leave out skipped. An acronym
 * standing alone but for the listing's own city also gives its letters alone and with the city's
 * initials around them ("KCD" in Munich: "kcd", "kcdm", "mkcd").
 */
function acronymKeys(f: MatchFacts): string[] {
  const spelled = f.spelled.filter((w) => !SKIPPED.has(w));
  // Most titles: no acronym, their initials alone.
  if (f.acronyms.length === 0) return letterKeys([initialsOf(spelled)]);
  const city = f.city?.split(" ") ?? [];
  const rest = spelled.filter((w) => !city.includes(w));
  // Only an acronym standing alone ("KCD", "KCD Munich") is the whole name: in a longer title
  // ("AWS User Group Berlin") it is one word of it.
  const alone = rest.length === 1 ? initials(rest, f) : [];
  const cityLetters = city.map((w) => w[0]).join("");
  const around = cityLetters === "" ? [] : alone.flatMap((l) => [cityLetters + l, l + cityLetters]);
  return letterKeys([...initials(spelled, f), ...alone, ...around]);
}

function letterKeys(forms: string[]): string[] {
  return [...new Set(forms)]
    .filter((l) => l.length >= MIN_LETTERS && l.length <= MAX_LETTERS)
    .map((l) => `a:${l}`);
}

/** A 53-bit hash (a safe integer for a bigint column); BigInt arithmetic cost too much. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A fingerprint of all the matcher reads of a listing: unchanged, nothing new to compare. */
export function factsFingerprint(f: MatchFacts): number {
  const { id: _id, ...read } = f;
  return hash53(`f:${JSON.stringify(read)}`);
}

/** What a listing stores, over its own days (`storedDays`). */
export const storedKeys = (f: MatchFacts): number[] => keysOf(f, "stored");

/** What a listing looks up, over the days its candidates may hold (`candidateBounds`). */
export const probeKeys = (f: MatchFacts): number[] => keysOf(f, "probe");

const dayOf = (ms: number) => Math.floor(ms / DAY);

/** The latitude `f`'s candidates are banded by: none without coordinates, or online (anywhere). */
export function bandLatitude(f: MatchFacts): number | null {
  return f.online ? null : f.point?.latitude ?? null;
}

/** The days a listing's keys are stored over: its own, at most MAX_DAYS after its first. */
export function storedDays(f: MatchFacts): DaySpan {
  const first = dayOf(f.start);
  return { first, last: Math.min(dayOf(f.end), first + MAX_DAYS) };
}

// The widest gap the matcher ever calls one event (60 hours), and the degrees of latitude past
// which two points are always further apart than its "places far apart" (120 km; a degree is
// 111.2 km). tests/duplicates/lookup-keys.test.ts holds the matcher to both.
const WINDOW_MS = 60 * 3_600_000;
const FAR_DEGREES = 1.1;

/** The bounds a candidate must fall in to be worth comparing with `f`. */
export function candidateBounds(f: MatchFacts): CandidateBounds {
  const lat = bandLatitude(f);
  return {
    at: new Date(f.start),
    from: new Date(f.start - WINDOW_MS),
    to: new Date(f.end + WINDOW_MS),
    latitudes: lat === null ? null : [lat - FAR_DEGREES, lat + FAR_DEGREES],
    days: {
      first: dayOf(f.start - WINDOW_MS),
      last: dayOf(Math.min(f.end, f.start + MAX_DAYS * DAY) + WINDOW_MS),
    },
  };
}
