/**
 * The public conference lists the duplicates evaluation pushes, as events, each under its own key:
 * tech-conferences/conference-data (MIT), python-deadlines (MIT), devopsdays.org (Apache-2.0),
 * testingconferences.org (MIT), kotlinlang.org's events (Apache-2.0) and react.dev's conference
 * page (CC BY 4.0), all in tests/fixtures/ with their licences. Each list words, dates and places
 * its conferences its own way; the labelled pairs between them are in
 * tests/fixtures/duplicates/labels.json.
 */
import type { EventSubmission } from "../../shared/event-schema.ts";
import type { Conference } from "./conference-events.ts";

const FIXTURES = new URL("../../tests/fixtures/", import.meta.url);

/** One listing of a list, with the external id the evaluation pushes it under. */
export type SourceEvent = EventSubmission & {
  external_id: string;
  title: string;
  starts_at: string;
  city?: string;
  country?: string;
};

interface PythonDeadlinesEntry {
  conference: string;
  link?: string;
  place?: string;
  start: string;
  end?: string;
  timezone?: string;
  latitude?: number;
  longitude?: number;
}

function slug(text: string): string {
  return text.normalize("NFKD").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")
    .slice(0, 80);
}

const CONFERENCE_DATA_YEARS = [
  "2019",
  "2020",
  "2021",
  "2022",
  "2023",
  "2024",
  "2025",
  "2026",
  "2027",
];

/** conference-data: one listing per name, URL and start (a conference is in several topics). */
export async function conferenceDataEvents(): Promise<SourceEvent[]> {
  const byKey = new Map<string, SourceEvent>();
  for (const year of CONFERENCE_DATA_YEARS) {
    const dir = new URL(`conference-data/${year}/`, FIXTURES);
    const files = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".json"))
      .sort();
    for (const file of files) {
      const list = JSON.parse(await Deno.readTextFile(new URL(file, dir))) as Conference[];
      for (const c of list) {
        const id = `cd:${c.startDate}:${slug(c.name)}`;
        if (byKey.has(id)) continue;
        byKey.set(id, {
          external_id: id,
          source_url: c.url,
          title: c.name,
          starts_at: `${c.startDate}T09:00:00Z`,
          ends_at: `${c.endDate ?? c.startDate}T18:00:00Z`,
          ...(c.city ? { city: c.city } : {}),
          ...(c.country ? { country: c.country } : {}),
          is_virtual: c.online === true && c.city === undefined,
          event_type: "conference",
        });
      }
    }
  }
  return [...byKey.values()];
}

/** python-deadlines: "City, Country" places, local start times where a zone is given. */
export async function pythonDeadlinesEvents(): Promise<SourceEvent[]> {
  const list: PythonDeadlinesEntry[] = [];
  for (const name of ["conferences-2019-2024.json", "conferences-2025-2027.json"]) {
    const file = new URL(`python-deadlines/${name}`, FIXTURES);
    list.push(...(JSON.parse(await Deno.readTextFile(file)) as PythonDeadlinesEntry[]));
  }
  const byKey = new Map<string, SourceEvent>();
  for (const c of list) {
    const id = `pd:${c.start}:${slug(c.conference)}`;
    if (byKey.has(id)) continue;
    const online = !c.place || /^online$/i.test(c.place.trim());
    const parts = (c.place ?? "").split(",").map((p) => p.trim()).filter(Boolean);
    // "Europe/Zurich"; "UTC", "UTC+0" and "GMT" are all UTC.
    const zone = c.timezone && c.timezone.includes("/") ? c.timezone : undefined;
    byKey.set(id, {
      external_id: id,
      source_url: c.link ?? "https://pythondeadlin.es/",
      title: c.conference,
      starts_at: zone ? `${c.start}T09:00:00` : `${c.start}T09:00:00Z`,
      ends_at: zone ? `${c.end ?? c.start}T18:00:00` : `${c.end ?? c.start}T18:00:00Z`,
      ...(zone ? { timezone: zone } : {}),
      ...(online || parts.length === 0 ? {} : { city: parts[0] }),
      ...(online || parts.length < 2 ? {} : { country: parts.at(-1) }),
      ...(c.latitude !== undefined && c.longitude !== undefined
        ? { latitude: c.latitude, longitude: c.longitude }
        : {}),
      is_virtual: online,
    });
  }
  return [...byKey.values()];
}

interface DevopsdaysEntry {
  name: string;
  city: string;
  startdate: string;
  enddate: string;
  coordinates?: string;
  location?: string;
  timezone?: string;
}

/** devopsdays.org's own pages of its 2025 events: "DevOpsDays <City> 2025", venue coordinates. */
export async function devopsdaysEvents(): Promise<SourceEvent[]> {
  const file = new URL("devopsdays/events-2025.json", FIXTURES);
  const list = JSON.parse(await Deno.readTextFile(file)) as DevopsdaysEntry[];
  return list.map((d) => {
    const city = d.city.charAt(0).toUpperCase() + d.city.slice(1);
    const dateOnly = !d.startdate.includes("T");
    const [lat, lon] = (d.coordinates ?? "").split(",").map(Number);
    return {
      external_id: `dod:${d.name}`,
      source_url: `https://devopsdays.org/events/${d.name}/`,
      title: `DevOpsDays ${city} ${d.name.slice(0, 4)}`,
      starts_at: dateOnly ? `${d.startdate}T09:00:00` : d.startdate,
      ends_at: dateOnly ? `${d.enddate}T18:00:00` : d.enddate,
      ...(dateOnly ? { timezone: d.timezone ?? "UTC" } : {}),
      city,
      ...(d.location ? { venue_name: d.location } : {}),
      ...(d.coordinates ? { latitude: lat, longitude: lon } : {}),
      is_virtual: false,
    };
  });
}

/** "Arlington, TX, USA and Online": the city first, the country last, "and Online" a hybrid. */
function placeOf(text: string | null | undefined): {
  city?: string;
  country?: string;
  is_virtual: boolean;
  is_hybrid?: boolean;
} {
  const place = (text ?? "").trim();
  if (place === "" || /^(online|remote|virtual)$/i.test(place)) return { is_virtual: true };
  const hybrid = /\s*(\band\b|&|\+)\s*(online|remote|vr)\s*$/i;
  const parts = place.replace(hybrid, "").split(",").map((p) => p.trim()).filter(Boolean);
  return {
    city: parts[0],
    ...(parts.length > 1 ? { country: parts.at(-1) } : {}),
    is_virtual: false,
    ...(hybrid.test(place) ? { is_hybrid: true } : {}),
  };
}

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** testingconferences.org's "August 30 - September 1, 2026" as ISO start and end days. */
export function testingConferencesDays(dates: string): { start: string; end: string } {
  const m = dates.trim().match(
    /^([A-Za-z]+)\s+(\d+)(?:\s*-\s*(?:([A-Za-z]+)\s+)?(\d+))?,\s*(\d{4})$/,
  );
  const month = (name: string | undefined) => MONTHS.indexOf((name ?? "").toLowerCase()) + 1;
  if (!m || month(m[1]) === 0 || (m[3] !== undefined && month(m[3]) === 0)) {
    throw new Error(`Cannot read the dates "${dates}" of testingconferences.org`);
  }
  const day = (mo: number, d: string) =>
    `${m[5]}-${String(mo).padStart(2, "0")}-${d.padStart(2, "0")}`;
  const start = day(month(m[1]), m[2]);
  return { start, end: m[4] ? day(m[3] ? month(m[3]) : month(m[1]), m[4]) : start };
}

interface TestingConferencesEntry {
  name: string;
  location?: string;
  dates: string;
  url?: string;
}

/** testingconferences.org: "Name 2025", venue towns ("Arlington, TX, USA"), tracking URLs. */
export async function testingConferencesEvents(): Promise<SourceEvent[]> {
  const file = new URL("testingconferences/conferences-2019-2027.json", FIXTURES);
  const list = JSON.parse(await Deno.readTextFile(file)) as TestingConferencesEntry[];
  const byKey = new Map<string, SourceEvent>();
  for (const c of list) {
    const { start, end } = testingConferencesDays(c.dates);
    const id = `tc:${start}:${slug(c.name)}`;
    if (byKey.has(id)) continue;
    byKey.set(id, {
      external_id: id,
      source_url: c.url ?? "https://testingconferences.org/",
      title: c.name,
      starts_at: `${start}T09:00:00Z`,
      ends_at: `${end}T18:00:00Z`,
      ...placeOf(c.location),
    });
  }
  return [...byKey.values()];
}

interface KotlinEventsEntry {
  title: string | number;
  startDate: string;
  endDate?: string;
  location?: string;
  online?: boolean;
  url?: string;
}

/**
 * kotlinlang.org's community events: a talk about Kotlin at a conference or a meetup, dated the
 * talk's day, so one conference may appear once per talk day. One listing per title and day.
 */
export async function kotlinEvents(): Promise<SourceEvent[]> {
  const file = new URL("kotlin-events/events-2019-2026.json", FIXTURES);
  const list = JSON.parse(await Deno.readTextFile(file)) as KotlinEventsEntry[];
  const byKey = new Map<string, SourceEvent>();
  for (const c of list) {
    const title = String(c.title).trim();
    const id = `kt:${c.startDate}:${slug(title)}`;
    if (byKey.has(id)) continue;
    const place = c.online ? { is_virtual: true } : placeOf(c.location);
    byKey.set(id, {
      external_id: id,
      source_url: c.url ?? "https://kotlinlang.org/community/events/",
      title,
      starts_at: `${c.startDate}T09:00:00Z`,
      ends_at: `${c.endDate ?? c.startDate}T18:00:00Z`,
      ...place,
    });
  }
  return [...byKey.values()];
}

interface ReactConferenceEntry {
  name: string;
  start: string;
  end: string;
  place: string | null;
  online: boolean;
  hybrid: boolean;
  url: string | null;
}

/** react.dev's conference page: "React Summit 2024", "In-person in Amsterdam + remote". */
export async function reactConferencesEvents(): Promise<SourceEvent[]> {
  const file = new URL("react-conferences/conferences-2019-2027.json", FIXTURES);
  const list = JSON.parse(await Deno.readTextFile(file)) as ReactConferenceEntry[];
  const byKey = new Map<string, SourceEvent>();
  for (const c of list) {
    const id = `rc:${c.start}:${slug(c.name)}`;
    if (byKey.has(id)) continue;
    byKey.set(id, {
      external_id: id,
      source_url: c.url ?? "https://react.dev/community/conferences",
      title: c.name,
      starts_at: `${c.start}T09:00:00Z`,
      ends_at: `${c.end}T18:00:00Z`,
      ...(c.online ? { is_virtual: true } : placeOf(c.place)),
      ...(c.hybrid ? { is_hybrid: true } : {}),
    });
  }
  return [...byKey.values()];
}

/** The lists, each with the prefix of its external ids. */
export async function duplicateSources(): Promise<{ name: string; events: SourceEvent[] }[]> {
  return [
    { name: "conference-data", events: await conferenceDataEvents() },
    { name: "python-deadlines", events: await pythonDeadlinesEvents() },
    { name: "devopsdays", events: await devopsdaysEvents() },
    { name: "testingconferences", events: await testingConferencesEvents() },
    { name: "kotlin-events", events: await kotlinEvents() },
    { name: "react-conferences", events: await reactConferencesEvents() },
  ];
}
