/**
 * The iCalendar reader: UID to external_id, recurring events expanded within the horizon, each
 * occurrence with a stable external_id made from the UID and its original start.
 */
import ICAL from "ical.js";
import { lines } from "./lines.ts";
import { type IcsBlock, readIcsBlocks } from "./ics-blocks.ts";
import { vtimezoneFor, type ZoneYears } from "./ics-zone-definitions.ts";
import { expandSeries, type IcsVevent, type SeriesContext } from "./ics-series.ts";
import { checkVevent } from "./ics-raw-checks.ts";
import { parseRule } from "./ics-rrule.ts";
import { resolveTimeZone } from "./resolve-time-zone.ts";
import type { ReaderOptions, ReadItem } from "./record.ts";

const DAY_MS = 86_400_000;
const FIRST_ZONE_YEAR = 1970;

/** The earliest year a start date names, so zone definitions need not reach back further. */
function earliestYear(events: IcsBlock[]): number {
  let earliest = Infinity;
  const pattern = /^(?:DTSTART|RECURRENCE-ID|RDATE|EXDATE)[^:\r\n]*:(\d{4})/gim;
  for (const block of events) {
    for (const match of block.text.matchAll(pattern)) {
      earliest = Math.min(earliest, Number(match[1]));
    }
  }
  return Number.isFinite(earliest) ? Math.max(FIRST_ZONE_YEAR, earliest - 1) : FIRST_ZONE_YEAR;
}

/** Every TZID parameter value the events use. */
function referencedTzids(events: IcsBlock[]): Set<string> {
  const found = new Set<string>();
  const pattern = /;TZID=("[^"]*"|[^;:]*)/gi;
  for (const block of events) {
    for (const match of block.text.matchAll(pattern)) {
      found.add(match[1].replace(/^"(.*)"$/, "$1"));
    }
  }
  return found;
}

/**
 * A VCALENDAR holding one VTIMEZONE per TZID: from the runtime's IANA data when the TZID names a
 * zone we know (so every feed gets current rules), else the calendar's own definition.
 */
function zoneRoot(timezones: IcsBlock[], events: IcsBlock[], years: ZoneYears) {
  const definitions = new Map<string, unknown[]>();
  for (const block of timezones) {
    // ical.js expands a zone's rules with the iterator that can run for ever; real zones change
    // offsets at most yearly, so any other rule makes the definition unusable.
    if (!hasYearlyRulesOnly(block.text)) continue;
    try {
      const jcal = ICAL.parse(block.text) as unknown[];
      const component = new ICAL.Component(jcal as never);
      const tzid = component.getFirstPropertyValue("tzid");
      if (typeof tzid === "string") definitions.set(tzid, jcal);
    } catch {
      // A broken VTIMEZONE is the same as none: its TZID is resolved by name below, or reported.
    }
  }
  const zones: unknown[] = [];
  for (const tzid of new Set([...definitions.keys(), ...referencedTzids(events)])) {
    const zone = resolveTimeZone(tzid);
    if (zone !== null && zone !== "UTC") {
      zones.push(vtimezoneFor(tzid, zone, years));
    } else if (definitions.has(tzid)) zones.push(definitions.get(tzid));
  }
  return new ICAL.Component(["vcalendar", [], zones] as never);
}

function hasYearlyRulesOnly(text: string): boolean {
  for (const match of text.matchAll(/^RRULE[^:\r\n]*:(.*)$/gim)) {
    const parsed = parseRule(match[1]);
    if (!parsed.ok || parsed.rule.freq !== "YEARLY") return false;
  }
  return true;
}

/** Reads an iCalendar stream into events. */
export async function* readIcs(
  chunks: AsyncIterable<string>,
  options: ReaderOptions,
): AsyncGenerator<ReadItem> {
  const blocks = await readIcsBlocks(lines(chunks));
  const location = (line: number) => `${options.sourceName}:${line}`;
  for (const broken of blocks.broken) {
    yield { kind: "invalid", location: location(broken.line), message: broken.message };
  }
  for (const [name, count] of blocks.otherComponents) {
    if (name === "VALARM") continue;
    yield {
      kind: "skipped",
      location: options.sourceName,
      message: `${count} ${name} component(s) are not events`,
    };
  }
  const windowStartMs = options.from.getTime();
  const windowEndMs = windowStartMs + options.horizonDays * DAY_MS;
  const calendarZone = blocks.calendarProperties.get("X-WR-TIMEZONE");
  // Zones are built to cover the recurrence window and the next decade of single events; times
  // outside these years are converted from the IANA data directly (see instantOf).
  const zoneYears: ZoneYears = {
    from: earliestYear(blocks.events),
    until: Math.max(new Date(windowEndMs).getUTCFullYear() + 1, new Date().getUTCFullYear() + 10),
  };
  const context: SeriesContext = {
    zoneYears,
    defaultZone: options.timezone ?? (calendarZone ? resolveTimeZone(calendarZone) : null),
    platform: options.platform ?? "ics_feed",
    sourceUrl: options.sourceUrl,
    method: blocks.calendarProperties.get("METHOD")?.trim().toUpperCase(),
    windowStartMs,
    windowEndMs,
    location,
  };
  const root = zoneRoot(blocks.timezones, blocks.events, zoneYears);

  // Group by UID first: overrides and newer versions of an event may come anywhere in the file.
  const byUid = new Map<string, IcsBlock[]>();
  for (const block of blocks.events) {
    if (!block.uid) {
      yield {
        kind: "invalid",
        location: location(block.line),
        message: "VEVENT has no UID, which its external_id is made from: give it a UID property",
      };
      continue;
    }
    const group = byUid.get(block.uid);
    if (group) group.push(block);
    else byUid.set(block.uid, [block]);
  }
  blocks.events.length = 0;

  for (const [uid, group] of byUid) {
    const vevents: IcsVevent[] = [];
    for (const block of group) {
      const parsed = parseVevent(block, root);
      if ("message" in parsed) {
        yield { kind: "invalid", location: location(block.line), message: parsed.message, uid };
      } else vevents.push(parsed);
    }
    byUid.delete(uid);
    if (vevents.length === 0) continue;
    for (const item of expandSeries(uid, vevents, context)) {
      // Problems and notes name their UID, so --sync knows which stored events they stand for.
      if (item.kind === "invalid" || item.kind === "skipped") item.uid = uid;
      yield item;
    }
  }
}

// Date properties whose value is a bare date but which lack VALUE=DATE, as some exporters write.
const BARE_DATE =
  /^(DTSTART|DTEND|RECURRENCE-ID|EXDATE|RDATE)((?:;[^:\r\n]*)?):(\d{8}(?:,\d{8})*)$/gim;

function markBareDates(text: string): string {
  return text.replace(
    BARE_DATE,
    (whole, name: string, params: string, value: string) =>
      /;VALUE=/i.test(params) ? whole : `${name}${params};VALUE=DATE:${value}`,
  );
}

function parseVevent(
  block: IcsBlock,
  root: InstanceType<typeof ICAL.Component>,
): IcsVevent | { message: string } {
  const checked = checkVevent(block.text);
  if ("message" in checked) return checked;
  let component;
  try {
    component = new ICAL.Component(ICAL.parse(markBareDates(checked.text)) as never);
  } catch {
    // ical.js's own messages name its internals; the lines were checked above, so what is left
    // is a structure it cannot read.
    return { message: "cannot read this VEVENT: its properties do not follow RFC 5545" };
  }
  // Resolve TZIDs against the zones of the whole calendar without copying the event into it.
  component.parent = root;
  const starts = component.getAllProperties("dtstart").length;
  if (starts !== 1) {
    return {
      message: starts === 0
        ? "VEVENT has no DTSTART: give it the date or date-time it starts at"
        : `VEVENT has ${starts} DTSTART properties; it must have one`,
    };
  }
  try {
    const start = component.getFirstPropertyValue("dtstart");
    if (!(start instanceof ICAL.Time)) {
      return {
        message: "DTSTART is not a date or date-time: write it as 20260305 or 20260305T180000Z",
      };
    }
    component.getFirstPropertyValue("dtend");
    component.getFirstPropertyValue("recurrence-id");
  } catch {
    return { message: "cannot read DTSTART, DTEND or RECURRENCE-ID as dates" };
  }
  return { component, line: block.line, rules: checked.rules, warnings: checked.warnings };
}
