/**
 * What a query says besides its subject: a place ("in Berlin"), a way of attending ("online
 * events") or a period ("this weekend"). Such words become a filter only where they read as one;
 * elsewhere they stay words of the query, which rank the events holding them, and are reported as
 * only ranked. A phrase some event holds as text ("virtual reality", "jakarta ee", "today I
 * learned") is a subject, never a filter. Explicit filters always win. A query of such words only
 * ("this weekend", "online", "in Berlin") leaves no words: the search lists every event within
 * those filters. Understanding never hides what the words find.
 *
 * Each kind of understanding is one reader below (readPeriod, readAttendance, readPlace): it
 * looks at the query's words and either takes some as a filter or reports them as ranked.
 */
import type { Sql } from "postgres";
import { type EventFilters, keepsEveryEvent } from "../db/event-filters.ts";
import { placesNamed } from "../db/text-places.ts";
import { phrasesHeld } from "../db/text-phrases.ts";
import { WHEN_PHRASES, whenPeriod, type WhenPhrase } from "./when-period.ts";

/** What the words named, and were only ranked by (left as words, not filters). */
export interface Understood {
  city?: string;
  country?: string;
  attendance?: "online" | "in_person";
  when?: WhenPhrase;
}

/** What was understood, as the answers report it: the filters, and `ranked`. */
export interface Interpreted extends Understood {
  /** The period `when` was read as (UTC instants, `to` inclusive as in the filters). */
  from?: string;
  to?: string;
  /** Named in the words but not read as a filter: those words only rank. */
  ranked?: Understood;
  /** Words asking for open calls for papers (server/search/cfp-words.ts). */
  cfp?: "open";
}

/** The query's remaining words and the filters with what they named added. */
export interface Interpretation {
  q: string;
  filters: Omit<EventFilters, "q">;
  interpreted: Interpreted;
  /**
   * The words left name a kind of event only, no subject ("online events", "conferences in
   * Paris"): a ranking of those words alone would hide every event that does not say "event" or
   * "conference", so searches rank them first and list the others after them.
   */
  kindOnly: boolean;
}

/** What a reader works on: the words left, the filters so far, what was understood. */
interface Reading {
  words: string[];
  filters: Omit<EventFilters, "q">;
  interpreted: Interpreted;
  /** Phrases of two or three words of the query asked about (learnHeld), and those held. */
  asked: Set<string>;
  held: Set<string>;
  now: Date;
  timeZone: string;
}

/** At most this many words are read for places: a place name is short. */
const MAX_PLACE_WORDS = 3;
const MAX_QUERY_WORDS = 30;
/** Words naming events: "online events", "rust meetups this weekend". */
const EVENT_WORDS =
  /^(events?|meetups?|conferences?|confs?|workshops?|talks?|webinars?|sessions?|hackathons?|courses?|classes|trainings?|summits?|socials?|nights?|gatherings?)$/;
const INTRODUCERS = new Set(["in", "at", "near", "around"]);
const ATTENDANCE: [string[], "online" | "in_person"][] = [
  [["online"], "online"],
  [["virtual"], "online"],
  [["remote"], "online"],
  [["in", "person"], "in_person"],
  [["in-person"], "in_person"],
  [["offline"], "in_person"],
  [["on", "site"], "in_person"],
  [["on-site"], "in_person"],
];

/** Reads `q` against the stored events' places; `now` and `timeZone` place "next month". */
export async function interpretQuery(
  sql: Sql,
  request: { q: string; filters: Omit<EventFilters, "q">; now: Date; timeZone?: string },
): Promise<Interpretation> {
  const words = request.q.toLowerCase().split(/\s+/).filter((w) => w !== "")
    .slice(0, MAX_QUERY_WORDS);
  const reading: Reading = {
    words,
    filters: { ...request.filters },
    interpreted: {},
    asked: new Set(),
    held: new Set(),
    now: request.now,
    timeZone: request.timeZone ?? "UTC",
  };
  await readPeriod(sql, reading);
  await readAttendance(sql, reading);
  await readPlace(sql, reading);
  const q = reading.words.join(" ");
  const { ranked, ...filtered } = reading.interpreted;
  const interpreted = ranked && Object.keys(ranked).length > 0 ? { ...filtered, ranked } : filtered;
  return {
    q,
    filters: reading.filters,
    interpreted,
    kindOnly: namesKindOnly(q, !keepsEveryEvent(reading.filters)),
  };
}

/**
 * Whether `q` names a kind of event and nothing else but linking words and words every event here
 * could claim: within filters, read from the words or given ("online events", "upcoming workshops
 * in Berlin"), or as events in general ("upcoming events"). A kind alone ("hackathons") is a
 * subject of its own.
 */
function namesKindOnly(q: string, filtered: boolean): boolean {
  const words = q.toLowerCase().split(/\s+/).map(bareWord).filter((w) => w !== "");
  const kinds = words.filter((w) => EVENT_WORDS.test(w));
  return kinds.length > 0 &&
    words.every((w) => EVENT_WORDS.test(w) || LINKING_WORDS.has(w) || ANY_EVENT_WORDS.has(w)) &&
    (filtered || kinds.every((w) => w === "event" || w === "events"));
}

/** Words that tell no event of this service from another: every one is upcoming and tech. */
const ANY_EVENT_WORDS = new Set([
  "upcoming",
  "future",
  "latest",
  "new",
  "all",
  "any",
  "tech",
  "technology",
  "technical",
]);

function bareWord(word: string): string {
  return word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
}

/**
 * Whether the words from `start` to `end` (exclusive) and a neighbouring word make a phrase events
 * hold, as learnHeld found. (The neighbour is a real word: "in new york" is held wherever New York
 * is a city.)
 */
function inHeldPhrase(r: Reading, start: number, end: number): boolean {
  return phrasesAround(r, start, end).some((p) => r.held.has(p));
}

/** The phrases of two or three words made of the words `start` to `end` and real neighbours. */
function phrasesAround(r: Reading, start: number, end: number): string[] {
  const bare = r.words.map(bareWord);
  const phrases: string[] = [];
  for (let from = Math.max(0, start - 2); from <= start; from++) {
    for (let to = end; to <= Math.min(bare.length, end + 2); to++) {
      const around = [...bare.slice(from, start), ...bare.slice(end, to)];
      if (to - from <= 3 && around.some((w) => !LINKING_WORDS.has(w) && !EVENT_WORDS.test(w))) {
        phrases.push(bare.slice(from, to).join(" "));
      }
    }
  }
  return phrases;
}

/**
 * Asks which phrases around the spans (the words a reader may take) events hold. Only words that
 * may name a period, an attendance or a place are asked about: a phrase test reads every event
 * holding the phrase's words, and most queries have no such word at all.
 */
async function learnHeld(
  sql: Sql,
  r: Reading,
  spans: { start: number; end: number }[],
): Promise<void> {
  const asked = [...new Set(spans.flatMap((s) => phrasesAround(r, s.start, s.end)))]
    .filter((p) => !r.asked.has(p));
  if (asked.length === 0) return;
  for (const p of asked) r.asked.add(p);
  for (const p of await phrasesHeld(sql, asked)) r.held.add(p);
}

/** Where each phrase (words) first occurs in the reading, for those that do. */
function spansOf(r: Reading, phrases: string[][]): { start: number; end: number }[] {
  return phrases.map((p) => ({ start: indexOf(r, p), length: p.length }))
    .filter((s) => s.start >= 0).map((s) => ({ start: s.start, end: s.start + s.length }));
}

/**
 * Words that join a phrase to its neighbours without making a phrase of them. Text search drops
 * most of them (stop words), so a phrase test would read "online conferences with" as "online
 * conferences": a phrase the title "XtremeJS Online Conference" holds.
 */
const LINKING_WORDS = new Set([
  "",
  "in",
  "at",
  "near",
  "around",
  "the",
  "a",
  "an",
  "of",
  "on",
  "i",
  "with",
  "for",
  "and",
  "or",
  "to",
  "from",
  "about",
  "by",
]);

/** Whether an event word follows `end` within `within` words. */
function eventWordAfter(r: Reading, end: number, within: number): boolean {
  return r.words.slice(end, end + within).some((w) => EVENT_WORDS.test(bareWord(w)));
}

/**
 * Whether words of two letters or more stay besides those from `start` to `end` (else those are
 * the whole query).
 */
function othersStay(r: Reading, start: number, end: number): boolean {
  return [...r.words.slice(0, start), ...r.words.slice(end)].some((w) => /\p{L}{2,}/u.test(w));
}

function take(r: Reading, start: number, end: number): void {
  r.words = [...r.words.slice(0, start), ...r.words.slice(end)];
}

function rank(r: Reading, understood: Understood): void {
  r.interpreted.ranked = { ...r.interpreted.ranked, ...understood };
}

/** Finds `phrase` (words) in the reading; its start, or -1. */
function indexOf(r: Reading, phrase: string[]): number {
  const bare = r.words.map(bareWord);
  for (let i = 0; i + phrase.length <= bare.length; i++) {
    if (phrase.every((w, k) => bare[i + k] === w)) return i;
  }
  return -1;
}

/**
 * A period filters at the end of the query ("rust meetups this weekend"), before a place ("this
 * weekend in Berlin"), before an event word ("this weekend's meetups", within three words), or as
 * the whole query ("this weekend").
 */
async function readPeriod(sql: Sql, r: Reading): Promise<void> {
  if (r.filters.from !== undefined || r.filters.to !== undefined) return;
  await learnHeld(sql, r, spansOf(r, WHEN_PHRASES.map((p) => p.split("_"))));
  for (const phrase of WHEN_PHRASES) {
    const start = indexOf(r, phrase.split("_"));
    if (start < 0) continue;
    const end = start + phrase.split("_").length;
    if (inHeldPhrase(r, start, end)) continue;
    const filters = !othersStay(r, start, end) || end === r.words.length ||
      INTRODUCERS.has(r.words[end]) || eventWordAfter(r, end, 3);
    if (!filters) {
      rank(r, { when: phrase });
      continue;
    }
    const period = whenPeriod(phrase, { now: r.now, timeZone: r.timeZone });
    r.filters.from = period.start;
    // The filters' `to` is inclusive; the period's end is the next period's first instant.
    r.filters.to = new Date(period.end.getTime() - 1);
    Object.assign(r.interpreted, {
      when: phrase,
      from: r.filters.from.toISOString(),
      to: r.filters.to.toISOString(),
    });
    take(r, start, end);
    return;
  }
}

/**
 * A way of attending filters before an event word ("online events", "online rust workshops":
 * within three words), at the end of the query ("rust meetups online"), or as the whole query
 * ("online").
 */
async function readAttendance(sql: Sql, r: Reading): Promise<void> {
  if (r.filters.attendance !== undefined || r.filters.is_virtual !== undefined) return;
  await learnHeld(sql, r, spansOf(r, ATTENDANCE.map(([phrase]) => phrase)));
  for (const [phrase, attendance] of ATTENDANCE) {
    const start = indexOf(r, phrase);
    if (start < 0) continue;
    const end = start + phrase.length;
    if (inHeldPhrase(r, start, end)) continue;
    const filters = !othersStay(r, start, end) || eventWordAfter(r, end, 3) ||
      (end === r.words.length && start > 0);
    if (!filters) {
      rank(r, { attendance });
      continue;
    }
    r.filters.attendance = attendance;
    r.interpreted.attendance = attendance;
    take(r, start, end);
    return;
  }
}

/**
 * A city or country of the stored events filters where "in", "at", "near" or "around"
 * introduces it ("rust in Berlin"), or where a country follows it after a comma ("Berlin,
 * Germany"); named bare ("phoenix liveview", "reading group") it only ranks.
 */
async function readPlace(sql: Sql, r: Reading): Promise<void> {
  if (r.filters.city !== undefined || r.filters.country !== undefined || r.filters.near) return;
  if (r.words.length < 2) return; // One word is never read as a place: no lookup.
  const spans = new Map<string, { start: number; end: number }>();
  for (let n = MAX_PLACE_WORDS; n >= 1; n--) {
    for (let i = 0; i + n <= r.words.length; i++) {
      const phrase = r.words.slice(i, i + n).map(bareWord).join(" ");
      if (phrase.length >= 2 && !spans.has(phrase)) spans.set(phrase, { start: i, end: i + n });
    }
  }
  const named = (await placesNamed(sql, [...spans.keys()]))
    .filter((p) => p.city !== null || p.country !== null);
  // Longest first: "new york" before "york".
  named.sort((a, b) => b.phrase.split(" ").length - a.phrase.split(" ").length);
  for (const place of named) {
    const { start, end } = spans.get(place.phrase)!;
    // The country of "Berlin, Germany" goes with its city.
    if (start > 0 && r.words[start - 1].endsWith(",")) continue;
    // "in Berlin", and "in the Netherlands".
    const article = start > 1 && r.words[start - 1] === "the" ? 1 : 0;
    const introduced = start > article && INTRODUCERS.has(r.words[start - 1 - article]);
    const comma = r.words[end - 1].endsWith(",") &&
      named.some((p) => p.country !== null && spans.get(p.phrase)?.start === end);
    const from = introduced ? start - 1 - article : start;
    const found = place.city !== null ? { city: place.city } : { country: place.country! };
    // A bare place only ranks, held in a phrase or not: asking whether events hold "typescript
    // berlin" reads every event holding both words (12 ms at 100,000 events) and changes nothing.
    if (!(introduced || comma)) {
      if (!place.topic) rank(r, found);
      continue;
    }
    if (!comma) {
      await learnHeld(sql, r, [{ start, end }]);
      if (inHeldPhrase(r, start, end)) continue;
    }
    Object.assign(r.filters, found);
    Object.assign(r.interpreted, found);
    const country = comma ? named.find((p) => spans.get(p.phrase)?.start === end) : undefined;
    const to = country ? spans.get(country.phrase)!.end : end;
    take(r, from, to);
    return;
  }
}
