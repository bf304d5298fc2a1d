/**
 * Titles as the matcher compares them: the words that name a conference, without the year, the
 * edition or the spelling of "conference".
 */

import { asciiTitleTokens } from "./normalise-title-tokens.ts";
import { countriesAsCodes } from "./normalise-title-countries.ts";

// Words that say which edition or what kind of event, not which one: two listings of the same
// conference often differ only in these.
const EDITION_WORDS = new Set([
  "the",
  "a",
  "an",
  "of",
  "and",
  "in",
  "on",
  "at",
  "for",
  "by",
  "de",
  "la",
  "le",
  "el",
  "der",
  "annual",
  "edition",
  "international",
  "intl",
  "conf",
  "conference",
  "conferences",
  "confs",
  "event",
  "events",
  "online",
  "virtual",
  "hybrid",
  "edt",
  "ed",
  "th",
  "st",
  "nd",
  "rd",
  "inperson",
  "live",
]);

/** Lower case, accents and punctuation removed, `&` spelt out; words separated by one space. */
export function foldText(text: string): string {
  // Unicode normalisation is the costliest step: only text beyond ASCII needs it.
  // deno-lint-ignore no-control-regex
  const ascii = /^[\x00-\x7f]*$/.test(text);
  // "Testμ" is "TestMu": the Greek letter has no decomposition to fold.
  const plain = ascii
    ? text
    : text.replace(/[\u00b5\u03bc]/g, "mu").normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  let lower = plain.toLowerCase();
  // Most titles hold neither sign: a scan for each is cheaper than a replace.
  if (lower.includes("&")) lower = lower.replace(/&/g, " and ");
  if (lower.includes("+")) lower = lower.replace(/\+/g, " plus ");
  return lower.replace(/[^a-z0-9]+/g, " ").trim();
}

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const APOSTROPHE = 39;
const LETTER_V = 118;

function isEditionMark(word: string): boolean {
  // Every mark starts with a digit, an apostrophe or a "v": most words are none, and are told
  // so without the four patterns.
  const c = word.charCodeAt(0);
  if ((c < DIGIT_0 || c > DIGIT_9) && c !== APOSTROPHE && c !== LETTER_V) return false;
  return /^(19|20)\d\d$/.test(word) || /^'?\d\d$/.test(word) ||
    /^\d+([a-z]|st|nd|rd|th|eme|er)?$/.test(word) || /^v\d+$/.test(word);
}

/** The words of a title that name the event (a title of only such words keeps them all). */
export function titleWords(title: string): string[] {
  return titleParts(title).words;
}

/**
 * The title's naming words (titleWords) and all its words but years and edition numbers, what an
 * acronym may stand for, folding the title once.
 */
export function titleParts(title: string): { words: string[]; spelled: string[] } {
  const all = asciiTitleTokens(title) ??
    foldText(splitJoined(title)).split(" ").filter((w) => w.length > 0);
  const unmarked: string[] = [];
  const naming: string[] = [];
  for (const w of all) {
    if (isEditionMark(w)) continue;
    unmarked.push(w);
    if (!EDITION_WORDS.has(w)) naming.push(w);
  }
  const spelled = countriesAsCodes(unmarked);
  // Only dropping words tells `naming` from `unmarked`: the same length is the same words.
  const kept = naming.length > 0 && naming.length < unmarked.length
    ? countriesAsCodes(naming)
    : spelled;
  return { words: distinct(kept), spelled };
}

/** The words without repeats, in their order (a title has few: no Set needed). */
function distinct(words: string[]): string[] {
  const out: string[] = [];
  for (const w of words) if (!out.includes(w)) out.push(w);
  return out;
}

/**
 * The other names a title gives, as title words: in brackets ("Pacific Northwest Software Quality
 * Conference (PNSQC)", "Render-Atlanta (RenderATL)"), and the name before a tagline ("TestFlix -
 * Global Software Testing Conference", "CypressConf | Call For Papers"). Each shorter than the
 * whole title; none when there are none.
 */
export function otherNames(title: string, whole = titleWords(title).length): string[][] {
  // Most titles have neither: skip the splitting.
  if (!/[(|:\u2013\u2014]|\s-\s/.test(title)) return [];
  const names: string[][] = [];
  const bracket = title.match(/\(([^()]{2,60})\)/);
  if (bracket) names.push(titleWords(bracket[1]));
  // A separator between words: " - ", " – ", " | ", ": " (not the hyphen of "Render-Atlanta").
  const head = title.split(/\s+[-\u2013\u2014|]\s+|:\s+|\s+\|/)[0];
  if (head.length < title.length) names.push(titleWords(head.replace(/\([^()]*\)/g, " ")));
  return names.filter((n) => n.length > 0 && n.length < whole);
}

/** The compact title without a trailing "conf" run into the name: "ReactConf" is "React". */
export function coreOfCompact(compact: string): string {
  // The shortest name of four characters or more before the ending (as a lazy pattern reads it,
  // without its backtracking over every length); no line break in the name, as "." reads it.
  const name = compact.endsWith("conference") && compact.length >= 14
    ? compact.slice(0, -10)
    : compact.endsWith("conf") && compact.length >= 8
    ? compact.slice(0, -4)
    : null;
  return name !== null && !/[\n\r\u2028\u2029]/.test(name) ? name : compact;
}

/** The title's letters and digits run together, years and edition words left out. */
export function compactTitle(title: string): string {
  return titleWords(title).join("");
}

// "PyCon2025" is "PyCon 2025". Words run together otherwise ("DevOpsDays", "DevOps Days") are
// compared by compactTitle, not split here: lists capitalise them differently.
function splitJoined(title: string): string {
  // "#42" numbers a meetup in its series: it names the event, unlike a year or an edition.
  // Each pattern only where its text can be: most titles have neither.
  const years = title.includes("19") || title.includes("20")
    ? title.replace(/([A-Za-z])((19|20)\d\d)\b/g, "$1 $2")
    : title;
  return years.includes("#") ? years.replace(/#\s*(\d+)/g, " n$1 ") : years;
}

/**
 * Whether `short` (one word such as "SCaLE" or "KCD") is an acronym of `words`: it can be cut into
 * consecutive pieces, each the start of the next word ("s|ca|l|e" of "southern california linux
 * expo"). Words in EDITION_WORDS may be skipped.
 */
export function isAcronymOf(short: string, words: string[]): boolean {
  return spellsAcronym(foldText(short).replace(/ /g, ""), words);
}

/** isAcronymOf for letters already folded (lower case, no spaces): the matcher's inner loop. */
export function spellsAcronym(letters: string, words: string[]): boolean {
  if (letters.length < 2 || letters.length > 12 || words.length < 2 || words.length > 12) {
    return false;
  }
  // The first letter starts the first word (or an edition word is skipped): most pairs stop here.
  if (words[0][0] !== letters[0] && !EDITION_WORDS.has(words[0])) return false;
  const fits = (i: number, w: number): boolean => {
    if (i === letters.length) return w === words.length;
    if (w === words.length) return false;
    const word = words[w];
    if (EDITION_WORDS.has(word) && fits(i, w + 1)) return true;
    for (let n = 1; n <= word.length && i + n <= letters.length; n++) {
      if (word.charCodeAt(n - 1) !== letters.charCodeAt(i + n - 1)) break;
      if (fits(i + n, w + 1)) return true;
    }
    return false;
  };
  return fits(0, 0);
}

/**
 * The words of a title written as acronyms, each with the letters it abbreviates: its capitals,
 * lower-cased ("SCaLE" is "scle", for Southern California Linux Expo; "KCD Munich" has "kcd").
 * A word is an acronym when it has three capitals or more and they are at least half its letters:
 * "DevOpsDays" and "PyCon" are names run together, not acronyms.
 */
export function acronymWords(title: string): { word: string; letters: string }[] {
  const found: { word: string; letters: string }[] = [];
  // Most titles have no run of capitals: skip the splitting.
  if (!/[A-Z][^A-Z]?[A-Z]/.test(title)) return found;
  for (const token of splitJoined(title).split(/[^A-Za-z0-9\u00c0-\u024f]+/)) {
    const { capitals, letters } = lettersOf(token);
    if (capitals.length < 3 || capitals.length * 2 < letters) continue;
    const word = foldText(token).replace(/ /g, "");
    if (word.length > 0 && !found.some((f) => f.word === word)) {
      found.push({ word, letters: capitals.toLowerCase() });
    }
  }
  return found;
}

/** A token's ASCII capitals, and how many ASCII letters it has, counted in one pass. */
function lettersOf(token: string): { capitals: string; letters: number } {
  let capitals = "";
  let letters = 0;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c >= UPPER_A && c <= UPPER_Z) {
      capitals += token[i];
      letters++;
    } else if (c >= LOWER_A && c <= LOWER_Z) letters++;
  }
  return { capitals, letters };
}

const UPPER_A = 65;
const UPPER_Z = 90;
const LOWER_A = 97;
const LOWER_Z = 122;

/** The first letters of `words`, or "" for fewer than three (two letters name too much). */
export function initialsOf(words: string[]): string {
  return words.length < 3 ? "" : words.map((w) => w[0]).join("");
}
