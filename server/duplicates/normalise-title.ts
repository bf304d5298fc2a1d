/**
 * Titles as the matcher compares them: the words that name a conference, without the year, the
 * edition or the spelling of "conference".
 */

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
  const plain = ascii ? text : text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  return plain.toLowerCase()
    .replace(/&/g, " and ").replace(/\+/g, " plus ")
    .replace(/[^a-z0-9]+/g, " ").trim();
}

function isEditionMark(word: string): boolean {
  return /^(19|20)\d\d$/.test(word) || /^'?\d\d$/.test(word) ||
    /^\d+([a-z]|st|nd|rd|th|eme|er)?$/.test(word) || /^v\d+$/.test(word);
}

/** The words of a title that name the event (a title of only such words keeps them all). */
export function titleWords(title: string): string[] {
  const words = foldText(splitJoined(title)).split(" ").filter((w) => w.length > 0);
  const naming = words.filter((w) => !isEditionMark(w) && !EDITION_WORDS.has(w));
  const kept = naming.length > 0 ? naming : words.filter((w) => !isEditionMark(w));
  return [...new Set(kept)];
}

/** The title's letters and digits run together, years and edition words left out. */
export function compactTitle(title: string): string {
  return titleWords(title).join("");
}

// "PyCon2025" is "PyCon 2025". Words run together otherwise ("DevOpsDays", "DevOps Days") are
// compared by compactTitle, not split here: lists capitalise them differently.
function splitJoined(title: string): string {
  // "#42" numbers a meetup in its series: it names the event, unlike a year or an edition.
  return title.replace(/([A-Za-z])((19|20)\d\d)\b/g, "$1 $2").replace(/#\s*(\d+)/g, " n$1 ");
}

/**
 * Whether `short` (one word such as "SCaLE" or "KCD") is an acronym of `words`: it can be cut into
 * consecutive pieces, each the start of the next word ("s|ca|l|e" of "southern california linux
 * expo"). Words in EDITION_WORDS may be skipped.
 */
export function isAcronymOf(short: string, words: string[]): boolean {
  const letters = foldText(short).replace(/ /g, "");
  if (letters.length < 2 || letters.length > 12 || words.length < 2 || words.length > 12) {
    return false;
  }
  const fits = (i: number, w: number): boolean => {
    if (i === letters.length) return w === words.length;
    if (w === words.length) return false;
    const word = words[w];
    if (EDITION_WORDS.has(word) && fits(i, w + 1)) return true;
    for (let n = 1; n <= word.length && i + n <= letters.length; n++) {
      if (word.slice(0, n) !== letters.slice(i, i + n)) break;
      if (fits(i + n, w + 1)) return true;
    }
    return false;
  };
  return fits(0, 0);
}
