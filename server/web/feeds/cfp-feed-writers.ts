/**
 * Calls for papers as feeds: an iCalendar entry at each CFP's deadline and an Atom entry per open
 * CFP, each linking to where proposals are sent. Their ids differ from the event feeds' ids, so a
 * calendar subscribed to both holds the event and its deadline side by side.
 */
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import { compactUtc, placeLine } from "../calendar-links.ts";
import { formatEventSpan, formatEventTime } from "../event-times.ts";
import { httpUrl } from "../safe-url.ts";
import { escapeIcalText, escapeXml } from "./feed-text.ts";
import { calendarDocument } from "./ics-writer.ts";
import type { AtomOptions } from "./atom-writer.ts";

/** An event's CFP is shown under its title as "CFP closes: <title>". */
export function cfpSummary(event: StoredEvent): string {
  return `CFP closes: ${event.title}`;
}

/** What the entry says besides its title: the deadline, the event, and where to submit. */
function cfpDetails(event: StoredEvent, pageUrl: string): string {
  const deadline = event.cfp_closes_at === null
    ? "No deadline given."
    : `Deadline: ${formatEventTime(event.cfp_closes_at, event.timezone)}.`;
  const when = formatEventSpan(event.starts_at, event.ends_at, event.timezone);
  const where = placeLine(event) || (event.is_virtual ? "Online" : "");
  return [
    deadline,
    `Event: ${event.title}, ${[when, where].filter(Boolean).join(" · ")}.`,
    `Submit: ${httpUrl(event.cfp_url) ?? ""}`,
    `Details: ${pageUrl}`,
  ].join("\n");
}

/** An event's CFP deadline as a VEVENT, apart from the event's own entry. */
export function cfpVevent(
  event: StoredEvent & { cfp_closes_at: string },
  origin: string,
): string[] {
  const pageUrl = `${origin}/events/${event.id}`;
  const url = httpUrl(event.cfp_url);
  return [
    "BEGIN:VEVENT",
    // "cfp-" keeps it apart from the event's own entry (`<id>@host`) in the same calendar.
    `UID:cfp-${event.id}@${new URL(origin).host}`,
    `DTSTAMP:${compactUtc(event.updated_at)}`,
    `DTSTART:${compactUtc(event.cfp_closes_at)}`,
    `SUMMARY:${escapeIcalText(cfpSummary(event))}`,
    `DESCRIPTION:${escapeIcalText(cfpDetails(event, pageUrl))}`,
    ...(url ? [`URL:${url}`] : []),
    `LAST-MODIFIED:${compactUtc(event.updated_at)}`,
    "TRANSP:TRANSPARENT",
    "END:VEVENT",
  ];
}

/**
 * The deadlines as a calendar: one timed entry at each CFP's closing instant. A CFP without a
 * deadline has no day to be on, so only the Atom feed and the page list it.
 */
export function cfpCalendarOf(
  events: StoredEvent[],
  options: { origin: string; name: string },
): string {
  const dated = events.filter((e): e is StoredEvent & { cfp_closes_at: string } =>
    e.cfp_closes_at !== null
  );
  return calendarDocument(dated.map((e) => cfpVevent(e, options.origin)), options.name);
}

/** An event's CFP as an Atom entry, apart from the event's own entry. */
export function cfpEntry(event: StoredEvent, origin: string): string {
  const pageUrl = `${origin}/events/${event.id}`;
  const url = httpUrl(event.cfp_url) ?? pageUrl;
  return [
    "<entry>",
    `<id>${escapeXml(`${pageUrl}#cfp`)}</id>`,
    `<title type="text">${escapeXml(cfpSummary(event))}</title>`,
    `<updated>${event.updated_at}</updated>`,
    `<link rel="alternate" type="text/html" href="${escapeXml(url)}"/>`,
    `<link rel="related" type="text/html" href="${escapeXml(pageUrl)}"/>`,
    `<summary type="text">${escapeXml(cfpDetails(event, pageUrl))}</summary>`,
    ...event.topics.map((t) => `<category term="${escapeXml(t)}"/>`),
    "</entry>",
  ].join("\n");
}

/** The open CFPs as an Atom feed, soonest deadline first. */
export function cfpAtomFeedOf(events: StoredEvent[], options: AtomOptions): string {
  const { origin } = options;
  const updated = events.length === 0
    ? new Date().toISOString()
    : events.reduce((latest, e) => (e.updated_at > latest ? e.updated_at : latest), "");
  const self = escapeXml(origin + options.selfPath);
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${self}</id>`,
    `<title type="text">${escapeXml(options.title)}</title>`,
    `<updated>${updated}</updated>`,
    `<link rel="self" type="application/atom+xml" href="${self}"/>`,
    `<link rel="alternate" type="text/html" href="${escapeXml(origin + options.pagePath)}"/>`,
    "<author><name>Tech events</name></author>",
    ...events.map((event) => cfpEntry(event, origin)),
    "</feed>",
    "",
  ].join("\n");
}
