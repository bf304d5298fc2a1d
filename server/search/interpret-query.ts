/**
 * What a query says besides its subject: a place ("in Berlin"), a way of attending ("online",
 * "in person") or a time ("next month"). Each becomes a filter, and is reported as `interpreted`,
 * unless the asker gave that filter explicitly (explicit filters always win). The words read this
 * way leave the text of the query, so that "rust meetups in Berlin" ranks events about rust
 * meetups among Berlin's.
 *
 * A phrase is a place only when the events have a city or country of that name; a place that is
 * also a topic label ("Java") is left as words unless "in", "at" or "near" introduces it, so a
 * query about the topic loses nothing. A query is never emptied: a place alone stays words.
 */
import type { Sql } from "postgres";
import type { EventFilters } from "../db/event-filters.ts";
import { placesNamed } from "../db/text-places.ts";
import { WHEN_PHRASES, whenPeriod, type WhenPhrase } from "./when-period.ts";

/** What was understood, as the answers report it. */
export interface Interpreted {
  city?: string;
  country?: string;
  attendance?: "online" | "in_person";
  when?: WhenPhrase;
  /** The period `when` was read as (UTC instants, `to` inclusive as in the filters). */
  from?: string;
  to?: string;
  /** Words asking for open calls for papers (server/search/cfp-words.ts). */
  cfp?: "open";
}

/** The query's remaining words and the filters with what they named added. */
export interface Interpretation {
  q: string;
  filters: Omit<EventFilters, "q">;
  interpreted: Interpreted;
}

/** At most this many words are read for places: a place name is short. */
const MAX_PLACE_WORDS = 3;
const MAX_QUERY_WORDS = 30;

const ATTENDANCE_WORDS: [RegExp, "online" | "in_person"][] = [
  [/\b(?:online|virtual|remote)\b/, "online"],
  [/\bin[- ]person\b|\boffline\b|\bon[- ]site\b/, "in_person"],
];

/** Reads `q` against the stored events' places; `now` and `timeZone` place "next month". */
export async function interpretQuery(
  sql: Sql,
  request: { q: string; filters: Omit<EventFilters, "q">; now: Date; timeZone?: string },
): Promise<Interpretation> {
  let text = ` ${request.q.toLowerCase().replace(/\s+/g, " ").trim()} `;
  const filters = { ...request.filters };
  const interpreted: Interpreted = {};
  const explicitTime = filters.from !== undefined || filters.to !== undefined;
  for (const phrase of WHEN_PHRASES) {
    const words = ` ${phrase.replace("_", " ")} `;
    if (!text.includes(words)) continue;
    if (!explicitTime && interpreted.when === undefined && hasOtherWords(text, words)) {
      const period = whenPeriod(phrase, { now: request.now, timeZone: request.timeZone ?? "UTC" });
      filters.from = period.start;
      // The filters' `to` is inclusive; the period's end is the next period's first instant.
      filters.to = new Date(period.end.getTime() - 1);
      Object.assign(interpreted, {
        when: phrase,
        from: filters.from.toISOString(),
        to: filters.to.toISOString(),
      });
      text = text.replace(words, " ");
    }
  }
  const explicitAttendance = filters.attendance !== undefined || filters.is_virtual !== undefined;
  for (const [pattern, attendance] of ATTENDANCE_WORDS) {
    const found = pattern.exec(text);
    if (!found || explicitAttendance || interpreted.attendance) continue;
    const rest = text.replace(pattern, " ");
    if (!hasOtherWords(rest, "")) continue;
    filters.attendance = attendance;
    interpreted.attendance = attendance;
    text = rest;
  }
  const explicitPlace = filters.city !== undefined || filters.country !== undefined ||
    filters.near !== undefined;
  if (!explicitPlace) text = await readPlace(sql, { text, filters, interpreted });
  const q = text.replace(/\s+/g, " ").trim();
  return { q: q === "" ? request.q : q, filters, interpreted };
}

/** Finds one place in `text`; sets its filter and returns the text without it. */
async function readPlace(
  sql: Sql,
  o: { text: string; filters: Omit<EventFilters, "q">; interpreted: Interpreted },
): Promise<string> {
  const words = o.text.trim().split(" ").slice(0, MAX_QUERY_WORDS);
  // One word is never read as a place (a query is never emptied): no lookup.
  if (words.length < 2) return o.text;
  const phrases = new Map<string, { start: number; end: number }>();
  for (let n = MAX_PLACE_WORDS; n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const phrase = words.slice(i, i + n).join(" ").replace(/^[^\p{L}]+|[^\p{L}.]+$/gu, "");
      if (phrase.length >= 2 && !phrases.has(phrase)) phrases.set(phrase, { start: i, end: i + n });
    }
  }
  const named = (await placesNamed(sql, [...phrases.keys()]))
    .filter((p) => p.city !== null || p.country !== null);
  // Longest first: "new york" before "york".
  named.sort((a, b) => b.phrase.split(" ").length - a.phrase.split(" ").length);
  for (const place of named) {
    const { start, end } = phrases.get(place.phrase)!;
    const introduced = start > 0 && ["in", "at", "near", "around"].includes(words[start - 1]);
    if (place.topic && !introduced) continue;
    const rest = [...words.slice(0, introduced ? start - 1 : start), ...words.slice(end)];
    if (!rest.some((w) => /\p{L}{2,}/u.test(w))) continue;
    if (place.city !== null) {
      o.filters.city = place.city;
      o.interpreted.city = place.city;
    } else {
      o.filters.country = place.country!;
      o.interpreted.country = place.country!;
    }
    return ` ${rest.join(" ")} `;
  }
  return o.text;
}

/** Whether `text` holds a word of two letters or more besides `phrase`. */
function hasOtherWords(text: string, phrase: string): boolean {
  return /\p{L}{2,}/u.test(phrase === "" ? text : text.replace(phrase, " "));
}
