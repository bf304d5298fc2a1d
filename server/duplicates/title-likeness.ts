/** How alike two listings' titles are, as the matcher reads them (titleSimilarity). */
import { type MatchFacts, type TitleView, titleView } from "./match-facts.ts";
import { spellsAcronym } from "./normalise-title.ts";
import { isKnownCountry } from "./normalise-place.ts";

/** Starts (and ends) this close are the same days, whatever time zone a list wrote them in. */
export const SAME_DAY_MS = 14 * 3_600_000;
// An acronym is at most this long, and stands for at most as many words as it has letters.
const MAX_ACRONYM = 12;

/** Whether one letter changed, added or removed turns `a` into `b`. */
function editDistanceAtMostOne(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const [restA, restB] = [a.slice(i + 1), b.slice(i + 1)];
  return restA === restB || a.slice(i) === restB || restA === b.slice(i);
}

function wordsAlike(a: string, b: string): boolean {
  if (a === b) return true;
  // A typo or a spelling ("Italia", "Italy") in a long word; short words ("us", "uk") and a
  // letter more at the end ("XtremeJ", "XtremeJS": two conferences) must be equal.
  if (a.length < 5 || b.length < 5 || a.startsWith(b) || b.startsWith(a)) return false;
  return editDistanceAtMostOne(a, b);
}

/**
 * Words of `a` not among `matched` that are an acronym of a run of two or more words of `b` not
 * among `used` ("apac", "asia pacific"): each counts as one word in common, the run as one word.
 */
function acronymRuns(
  a: TitleView,
  b: string[],
  sets: { matched: Set<string>; used: Set<string> },
): { common: number; folded: number } {
  const { matched, used } = sets;
  let common = 0;
  let folded = 0;
  for (const w of a.words) {
    if (matched.has(w) || w.length < 3 || w.length > MAX_ACRONYM) continue;
    search: for (let i = 0; i < b.length; i++) {
      if (b[i][0] !== w[0]) continue;
      for (let j = Math.min(b.length, i + w.length); j >= i + 2; j--) {
        const run = b.slice(i, j);
        if (run.some((x) => used.has(x))) continue;
        if (!abbreviates(a, w, run)) continue;
        for (const x of run) used.add(x);
        matched.add(w);
        common++;
        folded += run.length - 1;
        break search;
      }
    }
  }
  return { common, folded };
}

/** 1 for the same name, 0.9 for a one-word acronym of the other, else 0. */
function sameName(a: TitleView, b: TitleView): number {
  if (a.compact.length > 0 && a.compact === b.compact) return 1;
  // "ReactConf" and "React Conf": the other must say "conf" too ("KotlinConf" is no "Kotlin").
  const confOf = (x: TitleView, y: TitleView) =>
    x.core !== x.compact && x.core === y.compact &&
    y.spelled.some((w) => w === "conf" || w === "conference");
  if (confOf(a, b) || confOf(b, a)) return 1;
  if (a.words.length === 1 && abbreviates(a, a.words[0], b.spelled)) return 0.9;
  if (b.words.length === 1 && abbreviates(b, b.words[0], a.spelled)) return 0.9;
  return 0;
}

/**
 * Whether the word `w` of `view` is an acronym of `words`: pieces of it start each word, or,
 * written in capitals, its capitals do ("SCaLE": s, c, l, e).
 */
function abbreviates(view: TitleView, w: string, words: string[]): boolean {
  if (spellsAcronym(w, words)) return true;
  const letters = view.acronyms.find((a) => a.word === w)?.letters;
  return letters !== undefined && letters !== w && spellsAcronym(letters, words);
}

function viewSimilarity(a: TitleView, b: TitleView, oneWordNames: boolean): number {
  const name = sameName(a, b);
  if (name > 0) return name;
  const inA = new Set<string>();
  const inB = new Set<string>();
  for (const w of a.words) {
    for (const v of b.words) {
      if (wordsAlike(w, v)) {
        inA.add(w);
        inB.add(v);
      }
    }
  }
  const ab = acronymRuns(a, b.words, { matched: inA, used: inB });
  const ba = acronymRuns(b, a.words, { matched: inB, used: inA });
  const common = inA.size - ba.common + ab.common;
  if (common <= 0) return 0;
  const sizeA = a.words.length - ba.folded;
  const sizeB = b.words.length - ab.folded;
  const jaccard = common / (sizeA + sizeB - common);
  // A one-word title inside a longer one ("React", "React Advanced") names a series as often as
  // the event: the same name only where the caller has other evidence.
  if (Math.min(sizeA, sizeB) === 1 && Math.max(sizeA, sizeB) > 1 && !oneWordNames) return jaccard;
  return common >= Math.min(sizeA, sizeB) ? 0.85 + 0.15 * Math.min(1, jaccard) : jaccard;
}

/**
 * A title without the words naming the place both listings are in ("React Day Berlin" in
 * Berlin); null when it names none of them, or only them.
 */
function withoutPlace(x: MatchFacts, place: string[]): TitleView | null {
  if (place.length === 0 || !x.words.some((w) => place.includes(w))) return null;
  const rest = x.words.filter((w) => !place.includes(w));
  if (rest.length === 0) return null;
  return titleView(rest, x.spelled.filter((w) => !place.includes(w)), x.acronyms);
}

/** The words naming the place both listings are in: the shared city's, the shared country's. */
function sharedPlaceWords(a: MatchFacts, b: MatchFacts): string[] {
  const words: string[] = [];
  if (a.city !== null && a.city === b.city) {
    const city = a.city.split(" ");
    if (city.every((w) => a.words.includes(w)) || city.every((w) => b.words.includes(w))) {
      words.push(...city);
    }
  }
  // Not for two towns: "DevFest" in Nantes and "DevFest France" in Lille are two DevFests.
  const twoTowns = a.city !== null && b.city !== null && a.city !== b.city;
  if (!twoTowns && isKnownCountry(a.country) && a.country === b.country) {
    // Titles write "UK" for countryKey's "gb".
    words.push(a.country === "gb" ? "uk" : a.country!);
  }
  return words;
}

/**
 * How alike two titles are, 0 to 1: 1 for the same name run together, 0.9 for an acronym of the
 * other, 0.85 and up when one's words are all in the other, else the share of words in common.
 */
export function titleSimilarity(a: MatchFacts, b: MatchFacts): number {
  const place = sharedPlaceWords(a, b);
  // What lets a one-word title stand for a longer one: the same site, or the very same days.
  const sameSite = (a.site !== null && a.site === b.site) || (a.url !== null && a.url === b.url);
  const sameDays = Math.abs(a.start - b.start) <= SAME_DAY_MS &&
    Math.abs(a.end - b.end) <= SAME_DAY_MS;
  // Two towns on the same days are a series' weekend ("DevFest" in Nantes and Lille).
  const twoTowns = a.city !== null && b.city !== null && a.city !== b.city;
  const oneWordNames = sameSite || (sameDays && !twoTowns);
  let best = 0;
  const [restA, restB] = [withoutPlace(a, place), withoutPlace(b, place)];
  // Each title and each other name it gives; without its city a title may be a few common words
  // ("Software Testing"): only the same name, or an acronym of it, counts then.
  const [viewsA, viewsB] = [[a, ...a.aliases], [b, ...b.aliases]];
  for (const va of viewsA) {
    for (const vb of viewsB) best = Math.max(best, viewSimilarity(va, vb, oneWordNames));
    if (restB !== null) best = Math.max(best, sameName(va, restB));
  }
  if (restA !== null) {
    for (const vb of viewsB) best = Math.max(best, sameName(restA, vb));
    if (restB !== null) best = Math.max(best, sameName(restA, restB));
  }
  return best;
}
