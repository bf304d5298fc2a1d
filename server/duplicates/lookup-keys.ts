/**
 * The keys candidates are looked up by. Two listings of one event share a day and either two
 * naming words of their titles, their own site or their address: so each listing stores, for
 * each day it takes place on, the pairs of its title's words ("pycon+pydata@20201"), its
 * site and its address; a one-word title stores the word, a longer one its first word too. A
 * probe asks for the same keys on the
 * days around its own, so the index returns the few listings that could match, not a busy day's
 * every event.
 */
import type { MatchFacts } from "./match-facts.ts";

const DAY = 86_400_000;
// Days either side of a probe's own: a day of slack for time zones, one more for lists that
// are a day off.
const SLACK_DAYS = 2;
// Bounds the keys of a long listing or a long title.
const MAX_DAYS = 16;
const MAX_WORDS = 6;

function dayRange(f: MatchFacts, slack: number): number[] {
  const first = Math.floor(f.start / DAY) - slack;
  const last = Math.min(Math.floor(f.end / DAY) + slack, first + MAX_DAYS + 2 * slack);
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

function wordKeys(words: string[]): string[] {
  const w = [...new Set(words)].slice(0, MAX_WORDS).sort();
  if (w.length === 1) return [`w:${w[0]}`];
  const pairs: string[] = [];
  for (let i = 0; i < w.length; i++) {
    for (let j = i + 1; j < w.length; j++) pairs.push(`w:${w[i]}+${w[j]}`);
  }
  return pairs;
}

function keysWithoutDay(f: MatchFacts): string[] {
  return [
    ...wordKeys(f.words),
    // A title's first word, for a one-word title of the same event ("React", "React Summit").
    ...(f.words.length > 1 ? [`h:${f.words[0]}`] : []),
    ...(f.site ? [`s:${f.site}`] : []),
    ...(f.url ? [`u:${f.url}`] : []),
  ];
}

/** What a listing stores: its keys on each day it takes place. */
export function storedKeys(f: MatchFacts): string[] {
  const keys = keysWithoutDay(f);
  return dayRange(f, 0).flatMap((day) => keys.map((k) => `${k}@${day}`));
}

/**
 * What a listing looks up: its keys on its days and those around them, and the one-word keys of
 * its words (a one-word title stores only its word).
 */
export function probeKeys(f: MatchFacts): string[] {
  const words = [...new Set(f.words)].slice(0, MAX_WORDS);
  const keys = [
    ...new Set([
      ...keysWithoutDay(f),
      ...(words.length > 1 ? words.map((w) => `w:${w}`) : words.map((w) => `h:${w}`)),
    ]),
  ];
  return dayRange(f, SLACK_DAYS).flatMap((day) => keys.map((k) => `${k}@${day}`));
}
