/**
 * Lookup keys joining a title written as an acronym to the words it abbreviates: "SCaLE" and
 * "Southern California Linux Expo" share no word, so no other key finds one from the other. Both
 * sides store and look up the same key: the letters the title's words start with, an acronym
 * giving its capitals ("scle" for both).
 */
import type { MatchFacts } from "./match-facts.ts";
import { initialsOf } from "./normalise-title.ts";

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
 * The initials of `f`'s title, keyed `a:`: of its naming words, of every word but years
 * ("PNSQC" spells "conference" too), and of its naming words without its own city's ("KCD" in
 * Munich and "Kubernetes Community Days Munich"). None for a title of fewer than three words
 * (edition words included) that holds no acronym.
 */
export function acronymKeys(f: MatchFacts): string[] {
  // "React Universe Conf" has two naming words but spells "ruc".
  if (f.acronyms.length === 0 && f.spelled.length < MIN_LETTERS) return [];
  const city = f.city?.split(" ") ?? [];
  const forms = [
    ...initials(f.words, f),
    ...initials(f.spelled, f),
    ...initials(f.words.filter((w) => !city.includes(w)), f),
  ];
  return [...new Set(forms)]
    .filter((l) => l.length >= MIN_LETTERS && l.length <= MAX_LETTERS)
    .map((l) => `a:${l}`);
}
