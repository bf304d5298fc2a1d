/**
 * Signals that an operator should look at an event first. They only order the review queue and
 * explain it; they never reject an event (docs/unreviewed-contributors.md lists them).
 */
import type { EventRecord } from "../../shared/event-schema.ts";

/** The signals, each with the reason the review queue shows. */
export const SIGNALS = {
  many_links: "many links in the description",
  repeated_text: "the same text in many events of one batch",
  far_future: "starts more than two years ahead",
  shouting_title: "a title in capitals",
  spam_host: "a source URL host of a cleaned-up contributor",
} as const;

export type Signal = keyof typeof SIGNALS;

/** Links in a description from which it counts as many. */
export const MANY_LINKS = 5;
/** Events of one batch sharing a text from which it counts as repeated. */
export const REPEATED = 5;
const FAR_FUTURE_MS = 2 * 365 * 86_400_000;
/** Letters a title needs before its case means anything. */
const SHOUT_MIN_LETTERS = 8;

/** The host of a URL, lower-cased, or null. */
export function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

function isShouting(title: string): boolean {
  const letters = [...title].filter((ch) => ch.toLowerCase() !== ch.toUpperCase());
  if (letters.length < SHOUT_MIN_LETTERS) return false;
  const upper = letters.filter((ch) => ch === ch.toUpperCase()).length;
  return upper / letters.length >= 0.8;
}

const normalised = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

/** Texts of an event that count when repeated: its description, or else its title. */
function repeatedKey(e: EventRecord): string {
  return e.description ? `d:${normalised(e.description)}` : `t:${normalised(e.title)}`;
}

/**
 * The signals of each event of a batch found in its own fields, in the batch's order.
 * `spam_host` needs the database: server/db/event-signals.ts adds it where it stores these.
 */
export function signalsOf(events: EventRecord[], o: { now: Date }): Signal[][] {
  const repeats = new Map<string, number>();
  for (const e of events) repeats.set(repeatedKey(e), (repeats.get(repeatedKey(e)) ?? 0) + 1);
  return events.map((e) => {
    const found: Signal[] = [];
    const links = e.description?.match(/https?:\/\//gi)?.length ?? 0;
    if (links >= MANY_LINKS) found.push("many_links");
    if ((repeats.get(repeatedKey(e)) ?? 0) >= REPEATED) found.push("repeated_text");
    if (new Date(e.starts_at).getTime() - o.now.getTime() > FAR_FUTURE_MS) {
      found.push("far_future");
    }
    if (isShouting(e.title)) found.push("shouting_title");
    return found;
  });
}
