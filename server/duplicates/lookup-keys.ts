/**
 * The keys candidates are looked up by. Two listings of one event take place within two days of
 * each other and share two naming words of their titles, or a one-word title's word, or their
 * own site, or their address. So each listing stores those keys for the weeks of its days, and
 * looks them up in every week its days, two either side, touch: the index returns the few
 * listings that could match, not a busy week's every event. Keys are hashed to 53 bits.
 */
import type { MatchFacts } from "./match-facts.ts";

const DAY = 86_400_000;
// Days either side of a listing's own: a day of slack for time zones, one more for lists that
// are a day off.
const SLACK_DAYS = 2;
// Bound the keys of a long listing or a long title.
const MAX_DAYS = 16;
const MAX_WORDS = 4;

function weeks(f: MatchFacts, slack: number): number[] {
  const first = Math.floor(f.start / DAY) - slack;
  const last = Math.min(Math.floor(f.end / DAY), Math.floor(f.start / DAY) + MAX_DAYS) + slack;
  const week = (day: number) => Math.floor(day / 7);
  return Array.from({ length: week(last) - week(first) + 1 }, (_, i) => week(first) + i);
}

function keysWithoutWeek(f: MatchFacts, side: "stored" | "probe"): string[] {
  const words = [...new Set(f.words)].slice(0, MAX_WORDS);
  const sorted = [...words].sort();
  const keys: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) keys.push(`w:${sorted[i]}+${sorted[j]}`);
  }
  // A one-word title ("React") stores its word and finds the titles that start with it ("React
  // Summit"); a longer title finds the one-word titles among its words.
  if (words.length === 1) {
    keys.push(`o:${words[0]}`);
    if (side === "probe") keys.push(`h:${words[0]}`);
  } else if (words.length > 1) {
    if (side === "stored") keys.push(`h:${words[0]}`);
    else keys.push(...words.map((w) => `o:${w}`));
  }
  // The words run together: "XtremePython" and "Xtreme Python", "DevOps Days".
  if (f.compact.length > 0) keys.push(`c:${f.compact}`);
  if (f.site) keys.push(`s:${f.site}`);
  if (f.url) keys.push(`u:${f.url}`);
  return keys;
}

/**
 * A 53-bit hash (a safe integer for a bigint column) from two 32-bit multiply-xor lanes:
 * BigInt arithmetic cost more than the rest of detection.
 */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

function keysIn(f: MatchFacts, side: "stored" | "probe"): number[] {
  const keys = keysWithoutWeek(f, side);
  const slack = side === "probe" ? SLACK_DAYS : 0;
  return [...new Set(weeks(f, slack).flatMap((w) => keys.map((k) => hash53(`${k}@${w}`))))];
}

/** What a listing stores: its keys in the weeks of its own days. */
export function storedKeys(f: MatchFacts): number[] {
  return keysIn(f, "stored");
}

/** What a listing looks up: its keys in every week its days, two either side, touch. */
export function probeKeys(f: MatchFacts): number[] {
  return keysIn(f, "probe");
}
