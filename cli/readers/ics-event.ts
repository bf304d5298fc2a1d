/** Maps one VEVENT (or one occurrence of it) to the API's Event fields. */
import ICAL from "ical.js";
import { type IcsTime, instantOf } from "./ics-times.ts";
import type { ZoneYears } from "./ics-zone-definitions.ts";

type Component = InstanceType<typeof ICAL.Component>;
type Duration = InstanceType<typeof ICAL.Duration>;

/** Settings that hold for the whole calendar. */
export interface IcsContext {
  defaultZone: string | null;
  /** The years the calendar's zone definitions cover (see ics-zone-definitions.ts). */
  zoneYears: ZoneYears;
  platform: string;
  sourceUrl?: string;
}

/** The value and TZID of a date property, or null when the component lacks it. */
export function timeProperty(component: Component, name: string): IcsTime | null {
  const property = component.getFirstProperty(name);
  if (!property) return null;
  const time = property.getFirstValue();
  if (!(time instanceof ICAL.Time)) return null;
  const tzid = property.getParameter("tzid");
  return { time, tzid: typeof tzid === "string" ? tzid : null };
}

function durationOf(component: Component, start: IcsTime): Duration | null {
  const duration = component.getFirstPropertyValue("duration");
  if (duration instanceof ICAL.Duration) return duration;
  const end = timeProperty(component, "dtend");
  if (end) return end.time.subtractDateTz(start.time);
  // RFC 5545: an all-day event without DTEND or DURATION lasts one day.
  if (start.time.isDate) return ICAL.Duration.fromData({ days: 1 });
  return null;
}

/**
 * The end of the event that starts at `start`: its own DTEND for the component's own start, else
 * the start plus the component's length (DURATION, or DTEND minus DTSTART).
 */
export function endOf(component: Component, start: IcsTime, ownStart: boolean): IcsTime | null {
  if (ownStart) {
    const end = timeProperty(component, "dtend");
    if (end) return end;
  }
  const dtstart = timeProperty(component, "dtstart");
  if (!dtstart) return null;
  const duration = durationOf(component, dtstart);
  if (!duration) return null;
  const time = start.time.clone();
  time.addDuration(duration);
  return { time, tzid: start.tzid };
}

function text(component: Component, name: string): string | undefined {
  const value = component.getFirstPropertyValue(name);
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

function categories(component: Component): string[] | undefined {
  const items: string[] = [];
  for (const property of component.getAllProperties("categories")) {
    for (const value of property.getValues()) {
      if (typeof value !== "string") continue;
      for (const item of value.split(",")) {
        const trimmed = item.trim();
        if (trimmed !== "") items.push(trimmed);
      }
    }
  }
  return items.length > 0 ? items : undefined;
}

function geo(component: Component): [number, number] | undefined {
  const value = component.getFirstPropertyValue("geo");
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [lat, lon] = value.map(Number);
  return Number.isFinite(lat) && Number.isFinite(lon) ? [lat, lon] : undefined;
}

function organiser(component: Component): { name?: string; url?: string } {
  const property = component.getFirstProperty("organizer");
  if (!property) return {};
  const cn = property.getParameter("cn");
  const value = property.getFirstValue();
  return {
    // Only the display name: an organiser's e-mail address is not ours to publish.
    name: typeof cn === "string" && cn.trim() !== "" ? cn.trim() : undefined,
    url: typeof value === "string" && /^https?:\/\//i.test(value) ? value : undefined,
  };
}

/**
 * X-CFP-CLOSES (and X-CFP-OPENS) as the event schema reads CFP dates: a basic-format date
 * (20270115) becomes 2027-01-15, a basic date-time 20270115T235959Z its extended form; anything
 * else is passed on for the schema to judge. iCalendar has no standard CFP property.
 */
function cfpDate(component: Component, name: string): string | undefined {
  const value = component.getFirstPropertyValue(name);
  if (value instanceof ICAL.Time) return value.toString();
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const v = value.trim();
  const basic = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/i.exec(v);
  if (!basic) return v;
  const date = `${basic[1]}-${basic[2]}-${basic[3]}`;
  return basic[4] === undefined
    ? date
    : `${date}T${basic[4]}:${basic[5]}:${basic[6]}${basic[7].toUpperCase()}`;
}

const CANCELLED = "cancelled (STATUS:CANCELLED)";

/** Whether a skip reason says the event was cancelled (the service then deletes it). */
export function isCancellation(reason: string): boolean {
  return reason === CANCELLED;
}

/** Why a component is left out on purpose, or null when it is to be sent. */
export function skipReason(component: Component, method: string | undefined): string | null {
  const status = text(component, "status")?.toUpperCase();
  if (status === "CANCELLED" || method === "CANCEL") return CANCELLED;
  const klass = text(component, "class")?.toUpperCase();
  if (klass === "PRIVATE" || klass === "CONFIDENTIAL") return `marked CLASS:${klass}`;
  return null;
}

/** The Event object for `component` starting at `start`, or why it cannot be made. */
export function buildEvent(
  component: Component,
  externalId: string,
  start: IcsTime,
  end: IcsTime | null,
  context: IcsContext,
): { ok: true; event: Record<string, unknown> } | { ok: false; message: string } {
  const begins = instantOf(start, context.defaultZone, "DTSTART", context.zoneYears);
  if (!begins.ok) return begins;
  const ends = end === null
    ? null
    : instantOf(end, begins.zone ?? context.defaultZone, "DTEND", context.zoneYears);
  if (ends !== null && !ends.ok) return ends;
  const event: Record<string, unknown> = {
    external_id: externalId,
    platform: context.platform,
    title: text(component, "summary"),
    source_url: text(component, "url") ?? context.sourceUrl,
    starts_at: new Date(begins.epochMs).toISOString(),
  };
  if (ends) event.ends_at = new Date(ends.epochMs).toISOString();
  if (begins.zone) event.timezone = begins.zone;
  const description = text(component, "description");
  if (description) event.description = description;
  const location = text(component, "location");
  if (location) event.venue_name = location;
  const position = geo(component);
  if (position) [event.latitude, event.longitude] = position;
  const labels = categories(component);
  if (labels) event.categories = labels;
  const host = organiser(component);
  if (host.name) event.organiser_name = host.name;
  if (host.url) event.organiser_url = host.url;
  event.cfp_url = text(component, "x-cfp-url");
  event.cfp_opens_at = cfpDate(component, "x-cfp-opens");
  event.cfp_closes_at = cfpDate(component, "x-cfp-closes");
  for (const key of Object.keys(event)) if (event[key] === undefined) delete event[key];
  return { ok: true, event };
}
