/** Events as an Atom (RFC 4287) feed: one entry per event, linking to its page. */
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import { formatEventSpan } from "../event-times.ts";
import { placeLine } from "../calendar-links.ts";
import { escapeXml } from "./feed-text.ts";

export interface AtomOptions {
  origin: string;
  title: string;
  /** The feed's own URL (path and query), its id and rel="self". */
  selfPath: string;
  /** The page showing the same events. */
  pagePath: string;
  /** Entries after the events' (a saved search's CFP reminders). */
  extraEntries?: string[];
}

const SUMMARY_CHARACTERS = 1000;

function entry(event: StoredEvent, origin: string): string {
  const url = `${origin}/events/${event.id}`;
  const when = formatEventSpan(event.starts_at, event.ends_at, event.timezone);
  const where = placeLine(event) || (event.is_virtual ? "Online" : "");
  const about = [...(event.description ?? "")].slice(0, SUMMARY_CHARACTERS).join("");
  const summary = [[when, where].filter(Boolean).join(" · "), about].filter(Boolean).join("\n\n");
  return [
    "<entry>",
    `<id>urn:uuid:${event.id}</id>`,
    `<title type="text">${escapeXml(event.title)}</title>`,
    `<updated>${event.updated_at}</updated>`,
    `<published>${event.created_at}</published>`,
    `<link rel="alternate" type="text/html" href="${escapeXml(url)}"/>`,
    `<summary type="text">${escapeXml(summary)}</summary>`,
    ...event.topics.map((t) => `<category term="${escapeXml(t)}"/>`),
    "</entry>",
  ].join("\n");
}

/** The feed document. */
export function atomFeedOf(events: StoredEvent[], options: AtomOptions): string {
  const { origin } = options;
  const updated = events.length === 0
    ? new Date().toISOString()
    : events.reduce((latest, e) => (e.updated_at > latest ? e.updated_at : latest), "");
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${escapeXml(origin + options.selfPath)}</id>`,
    `<title type="text">${escapeXml(options.title)}</title>`,
    `<updated>${updated}</updated>`,
    `<link rel="self" type="application/atom+xml" href="${escapeXml(origin + options.selfPath)}"/>`,
    `<link rel="alternate" type="text/html" href="${escapeXml(origin + options.pagePath)}"/>`,
    "<author><name>Tech events</name></author>",
    ...events.map((event) => entry(event, origin)),
    ...(options.extraEntries ?? []),
    "</feed>",
    "",
  ].join("\n");
}
