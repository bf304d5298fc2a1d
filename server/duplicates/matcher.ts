/**
 * Whether two listings are the same real-world event. Pure: the rules read two MatchFacts and
 * nothing else, so the evaluation and the tests exercise exactly what ingestion runs.
 */
import type { MatchFacts } from "./match-facts.ts";
import { distanceKm, isKnownCountry } from "./normalise-place.ts";
import { SAME_DAY_MS, titleSimilarity } from "./title-likeness.ts";

const HOUR = 3_600_000;
// Same local day with a day of slack: time zones and date-only listings move a start by up
// to a day either way.
const MAX_GAP = 36 * HOUR;
// Two listings written a day or two apart with the same name and address.
const MAX_GAP_SAME_ADDRESS = 60 * HOUR;
const SAME_PLACE_KM = 30;
const FAR_KM = 120;
// Stops of a tour further apart than this on other days are other events; a town and its
// neighbour (Berlin and Potsdam) are closer.
const TOUR_STOP_KM = 50;

/** The outcome for a pair: whether it is one event, and how sure (for ordering the merges). */
export interface MatchVerdict {
  same: boolean;
  score: number;
  reason: string;
}

/** Hours between the two listings' time spans (0 when they overlap). */
export function gapMs(a: MatchFacts, b: MatchFacts): number {
  return Math.max(0, Math.max(a.start, b.start) - Math.min(a.end, b.end));
}

/** Compares the places of two listings. */
export function placeRelation(
  a: MatchFacts,
  b: MatchFacts,
): "same" | "unknown" | "other-town" | "conflict" {
  if (a.online && b.online) return "same";
  if (a.point && b.point) {
    const km = distanceKm(a.point, b.point);
    if (km <= SAME_PLACE_KM) return "same";
    if (km > FAR_KM) return "conflict";
  }
  // Only two countries the table knows conflict: an unknown name ("CR and VR", a region) is not
  // evidence of another country.
  if (isKnownCountry(a.country) && isKnownCountry(b.country) && a.country !== b.country) {
    return "conflict";
  }
  if (a.city && b.city) return a.city === b.city ? "same" : "other-town";
  if (a.online !== b.online && (a.city || b.city)) return "other-town";
  return "unknown";
}

/** Whether both titles number their event ("#42", "#43") and the numbers differ. */
function numberedApart(a: MatchFacts, b: MatchFacts): boolean {
  const numbers = (x: MatchFacts) => x.words.filter((w) => /^n\d+$/.test(w));
  const [na, nb] = [numbers(a), numbers(b)];
  return na.length > 0 && nb.length > 0 && !na.some((n) => nb.includes(n));
}

/** Whether one title names its own city where the other listing is elsewhere ("DevFest Lille"). */
function namesAnotherPlace(a: MatchFacts, b: MatchFacts): boolean {
  const names = (x: MatchFacts, y: MatchFacts) =>
    x.city !== null && y.city !== null && x.city !== y.city &&
    x.city.split(" ").every((w) => x.words.includes(w)) &&
    !x.city.split(" ").every((w) => y.words.includes(w));
  return names(a, b) || names(b, a);
}

/**
 * Whether two listings are stops of a tour: one name in city after city on other days, far apart
 * by coordinates when both have them, else in two cities. The same address or site is one event.
 */
function tourStops(a: MatchFacts, b: MatchFacts): boolean {
  if (gapMs(a, b) === 0) return false;
  if ((a.url !== null && a.url === b.url) || (a.site !== null && a.site === b.site)) return false;
  if (a.point && b.point) return distanceKm(a.point, b.point) > TOUR_STOP_KM;
  return a.city !== null && b.city !== null && a.city !== b.city;
}

/**
 * Vectors this alike say one event where the titles share no words: chosen on the labelled set
 * with the local model, above every hard negative's similarity there (docs/duplicates.md).
 */
export const VECTOR_SAME = 0.9;

/**
 * Decides whether `a` and `b` list the same real-world event; `vectorSimilarity` is the cosine
 * similarity of their vectors when both are in AI search.
 */
export function matchListings(
  a: MatchFacts,
  b: MatchFacts,
  evidence: { vectorSimilarity?: number } = {},
): MatchVerdict {
  const gap = gapMs(a, b);
  const place = placeRelation(a, b);
  const title = titleSimilarity(a, b);
  const sameUrl = a.url !== null && a.url === b.url;
  const sameSite = a.site !== null && a.site === b.site;
  const no = (reason: string): MatchVerdict => ({ same: false, score: title, reason });
  const yes = (reason: string, bonus: number): MatchVerdict => ({
    same: true,
    score: title + bonus,
    reason,
  });
  if (place === "conflict") return no("places far apart");
  if (namesAnotherPlace(a, b)) return no("a title names another place");
  if (tourStops(a, b)) return no("stops of a tour");
  if (numberedApart(a, b)) return no("another number of the series");
  // A page for several events (a series' site) names each town in its title: another town
  // needs the same name as well.
  const nameNeeded = place === "other-town" ? 0.85 : 0.3;
  if (sameUrl && gap <= MAX_GAP_SAME_ADDRESS && title >= nameNeeded) return yes("same address", 1);
  if (gap > MAX_GAP_SAME_ADDRESS) return no("dates apart");
  if (gap > MAX_GAP) {
    return place === "same" && title >= 0.85
      ? yes("same place and name, a day or two apart", 0.2)
      : no("dates apart");
  }
  if (sameSite && title >= 0.5) return yes("same site, alike titles", 0.5);
  if (place === "same" && title >= 0.6) return yes("same place, alike titles", 0.3);
  if (place === "unknown" && title >= 0.85) return yes("same title, place unknown", 0.1);
  // A venue in the next town ("Winterthur" for Zurich): the same name, in the same country when
  // both give one.
  if (place === "other-town" && title >= 1) return yes("same title, nearby town", 0);
  if (place === "other-town" && title >= 0.85 && a.country !== null && a.country === b.country) {
    return yes("alike title, nearby town", 0);
  }
  // Titles that share no words, in the same place starting the same day: the vectors (title,
  // topics, description) decide, at a bar no two events of one city and week reached.
  const vectors = evidence.vectorSimilarity ?? 0;
  if (place === "same" && Math.abs(a.start - b.start) <= SAME_DAY_MS && vectors >= VECTOR_SAME) {
    return yes("same place and day, alike vectors", 0);
  }
  return no("titles or places differ");
}
