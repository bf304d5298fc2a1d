/**
 * Titles as the matcher compares them: the words that name a conference, without the year, the
 * edition or the spelling of "conference", and a country named in one spelling.
 */
import { EDITION_WORDS, TITLE_COUNTRIES } from "../matching-names.ts";

// As a Map: a word such as "constructor" is never read as a property of Object.prototype.
const TITLE_COUNTRY_CODES = new Map(Object.entries(TITLE_COUNTRIES));
// The first words of the two-word names: only after one of them is a pair of words looked up.
const FIRSTS_OF_TWO = new Set(
  Object.keys(TITLE_COUNTRIES).filter((k) => k.includes(" ")).map((k) => k.split(" ")[0]),
);

/** Lower case, accents and punctuation removed, `&` spelt out; words separated by one space. */
export function foldText(text: string): string {
  // Unicode normalisation is the costliest step: only text beyond ASCII needs it.
  // deno-lint-ignore no-control-regex
  const plain = /^[\x00-\x7f]*$/.test(text)
    ? text
    // "Testμ" is "TestMu": the Greek letter has no decomposition to fold.
    : text.replace(/[\u00b5\u03bc]/g, "mu").normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  return plain.toLowerCase().replace(/&/g, " and ").replace(/\+/g, " plus ")
    .replace(/[^a-z0-9]+/g, " ").trim();
}

const EDITION_MARK = /^((19|20)\d\d|'?\d\d|\d+([a-z]|st|nd|rd|th|eme|er)?|v\d+)$/;

/** The words of a title that name the event (a title of only such words keeps them all). */
export function titleWords(title: string): string[] {
  return titleParts(title).words;
}

/** The words (folded, none empty) with the countries they name as codes. */
function countriesAsCodes(words: string[]): string[] {
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

/** The title's naming words, and all its words but years and edition numbers (`spelled`). */
export function titleParts(title: string): { words: string[]; spelled: string[] } {
  const unmarked = foldText(splitJoined(title)).split(" ")
    .filter((w) => w.length > 0 && !EDITION_MARK.test(w));
  const naming = unmarked.filter((w) => !EDITION_WORDS.has(w));
  const spelled = countriesAsCodes(unmarked);
  const kept = naming.length > 0 ? countriesAsCodes(naming) : spelled;
  return { words: [...new Set(kept)], spelled };
}

/**
 * The other names a title gives: in brackets ("... Conference (PNSQC)"), and the name before a
 * tagline ("TestFlix - Global Software Testing Conference"); each shorter than the whole title.
 */
export function otherNames(title: string, whole = titleWords(title).length): string[][] {
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
  // The name before the ending must have four characters or more.
  if (compact.endsWith("conference") && compact.length >= 14) return compact.slice(0, -10);
  if (compact.endsWith("conf") && compact.length >= 8) return compact.slice(0, -4);
  return compact;
}

// "PyCon2025" is "PyCon 2025"; "#42" numbers a meetup in its series ("n42"): it names the event.
function splitJoined(title: string): string {
  return title.replace(/([A-Za-z])((19|20)\d\d)\b/g, "$1 $2").replace(/#\s*(\d+)/g, " n$1 ");
}

/**
 * Whether `letters` (folded: "scale") is an acronym of `words`: cut into pieces, each the start
 * of the next word ("s|ca|l|e" of "southern california linux expo"), edition words skipped.
 */
export function spellsAcronym(letters: string, words: string[]): boolean {
  if (letters.length < 2 || letters.length > 12 || words.length < 2 || words.length > 12) {
    return false;
  }
  const fits = (i: number, w: number): boolean => {
    if (i === letters.length) return w === words.length;
    if (w === words.length) return false;
    const word = words[w];
    if (EDITION_WORDS.has(word) && fits(i, w + 1)) return true;
    for (let n = 1; n <= word.length && i + n <= letters.length; n++) {
      if (word[n - 1] !== letters[i + n - 1]) break;
      if (fits(i + n, w + 1)) return true;
    }
    return false;
  };
  return fits(0, 0);
}

/**
 * The words of a title written as acronyms (three capitals or more, at least half its letters:
 * not "DevOpsDays"), each with its capitals lower-cased ("SCaLE" is "scle").
 */
export function acronymWords(title: string): { word: string; letters: string }[] {
  const found: { word: string; letters: string }[] = [];
  // Most titles have no run of capitals: skip the splitting.
  if (!/[A-Z][^A-Z]?[A-Z]/.test(title)) return found;
  for (const token of splitJoined(title).split(/[^A-Za-z0-9\u00c0-\u024f]+/)) {
    const capitals = token.replace(/[^A-Z]/g, "");
    if (capitals.length < 3 || capitals.length * 2 < token.replace(/[^A-Za-z]/g, "").length) {
      continue;
    }
    const word = foldText(token).replace(/ /g, "");
    if (word.length > 0 && !found.some((f) => f.word === word)) {
      found.push({ word, letters: capitals.toLowerCase() });
    }
  }
  return found;
}

/** The first letters of `words`, or "" for fewer than three (two letters name too much). */
export function initialsOf(words: string[]): string {
  return words.length < 3 ? "" : words.map((w) => w[0]).join("");
}
