/**
 * The two conference lists the duplicates evaluation pushes, as events: tech-conferences/
 * conference-data (tests/fixtures/conference-data/, MIT) and python-deadlines
 * (tests/fixtures/python-deadlines/, MIT). Each list words its conferences its own way; the
 * labelled pairs between them are in tests/fixtures/duplicates/labels.json.
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

/** conference-data: one listing per name, URL and start (a conference is in several topics). */
export async function conferenceDataEvents(): Promise<SourceEvent[]> {
  const byKey = new Map<string, SourceEvent>();
  for (const year of ["2025", "2026", "2027"]) {
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
  const file = new URL("python-deadlines/conferences-2025-2027.json", FIXTURES);
  const list = JSON.parse(await Deno.readTextFile(file)) as PythonDeadlinesEntry[];
  const byKey = new Map<string, SourceEvent>();
  for (const c of list) {
    const id = `pd:${c.start}:${slug(c.conference)}`;
    if (byKey.has(id)) continue;
    const online = !c.place || /^online$/i.test(c.place.trim());
    const parts = (c.place ?? "").split(",").map((p) => p.trim()).filter(Boolean);
    const zone = c.timezone && c.timezone !== "UTC" ? c.timezone : undefined;
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

/** The three lists, each with the prefix of its external ids. */
export async function duplicateSources(): Promise<{ name: string; events: SourceEvent[] }[]> {
  return [
    { name: "conference-data", events: await conferenceDataEvents() },
    { name: "python-deadlines", events: await pythonDeadlinesEvents() },
    { name: "devopsdays", events: await devopsdaysEvents() },
  ];
}
