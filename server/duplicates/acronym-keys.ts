/**
 * Lookup keys joining a title written as an acronym to the words it abbreviates: "SCaLE" and
 * "Southern California Linux Expo" share no word, so no other key finds one from the other. Both
 * sides store and look up the same key: the letters the title's words start with, an acronym
 * giving its capitals ("scle" for both).
 */
import type { MatchFacts } from "./match-facts.ts";
import { initialsOf } from "./normalise-title.ts";

// Words an acronym leaves out: "ICSE" is the International Conference on Software Engineering.
const SKIPPED = new Set("the a an of and in on at for by to de la le el der".split(" "));
// Shorter initials are shared by too many titles to be worth a lookup.
const MIN_LETTERS = 3;
const MAX_LETTERS = 12;

/**
 * The first letters of `words`, and, where some are written as acronyms, their capitals in their
 * place ("KCD Munich" is "kcdm"; "EuroSTAR Software Testing" both "est" and "estarst").
 */
function initials(words: string[], f: MatchFacts): string[] {
  const expanded = f.acronyms.some((a) => words.includes(a.word))
    ? [words.map((w) => f.acronyms.find((a) => a.word === w)?.letters ?? w[0]).join("")]
    : [];
  return [initialsOf(words), ...expanded];
}

/**
 * The initials of `f`'s title, keyed `a:`: of every word but years and the words acronyms leave
 * out ("PNSQC" spells "conference", "ICSE" skips "on"). An acronym standing alone but for the
 * listing's own city also gives its letters alone, and with the city's initials before or after
 * ("KCD" in Munich is "kcd", "kcdm" and "mkcd": "Kubernetes Community Days Munich" stores
 * "kcdm"), so that the many titles without one store one key and the few with one look up the
 * rest. None for a title of fewer than three words that holds no acronym.
 */
export function acronymKeys(f: MatchFacts): string[] {
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
