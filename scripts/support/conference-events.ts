/**
 * Real conferences as events, for the search-quality evaluation: tests/fixtures/conference-data/
 * holds 1,161 entries of 2025-2027 in one file per topic; a conference listed under several
 * topics is one event carrying all of them. An event's topics are its files' labels in words a
 * contributor would write ("open source" for opensource.json), so a query that names a topic
 * finds it by text, and one that paraphrases it needs meaning.
 */
import { EventInput, type EventRecord } from "../../shared/event-schema.ts";

const DATA_DIR = new URL("../../tests/fixtures/conference-data/", import.meta.url);

/** A topic file's label as a contributor would write it; "general" labels nothing. */
const LABELS: Record<string, string | null> = {
  cpp: "C++",
  dotnet: ".NET",
  general: null,
  opensource: "open source",
  "tech-comm": "technical communication",
};

/** The words a contributor would tag a topic file's conferences with; null for none. */
export function topicLabel(topic: string): string | null {
  return LABELS[topic] === undefined ? topic : LABELS[topic];
}

/** The conferences as events, and for each topic file the external ids of its conferences. */
export interface ConferenceData {
  events: EventRecord[];
  byTopic: Map<string, Set<string>>;
}

/** One entry of a conference-data topic file, as written there. */
export interface Conference {
  name: string;
  url: string;
  startDate: string;
  endDate?: string;
  city?: string;
  country?: string;
  online?: boolean;
}

/** Reads every topic file of every year; conferences are one event per name, URL and start. */
export async function readConferenceData(): Promise<ConferenceData> {
  const merged = new Map<string, { conference: Conference; topics: Set<string> }>();
  for (const year of ["2025", "2026", "2027"]) {
    // Sorted, so that every machine numbers the conferences alike.
    const files = [...Deno.readDirSync(new URL(`${year}/`, DATA_DIR))]
      .map((e) => e.name).filter((n) => n.endsWith(".json")).sort();
    for (const file of files) {
      const topic = file.slice(0, -".json".length);
      const text = await Deno.readTextFile(new URL(`${year}/${file}`, DATA_DIR));
      for (const conference of JSON.parse(text) as Conference[]) {
        const key = JSON.stringify([conference.name, conference.url, conference.startDate]);
        const found = merged.get(key) ?? { conference, topics: new Set<string>() };
        found.topics.add(topic);
        merged.set(key, found);
      }
    }
  }
  const events: EventRecord[] = [];
  const byTopic = new Map<string, Set<string>>();
  [...merged.values()].forEach(({ conference: c, topics }, i) => {
    const id = `conf-${i}`;
    for (const t of topics) byTopic.set(t, (byTopic.get(t) ?? new Set()).add(id));
    const parsed = EventInput.safeParse({
      external_id: id,
      source_url: c.url,
      title: c.name,
      starts_at: `${c.startDate}T09:00:00Z`,
      ends_at: `${c.endDate ?? c.startDate}T18:00:00Z`,
      city: c.city,
      country: c.country,
      is_virtual: c.online === true && c.city === undefined,
      event_type: "conference",
      topics: [...topics].map(topicLabel).filter((t): t is string => t !== null),
    });
    if (!parsed.success) {
      throw new Error(`Cannot read conference ${c.name}: ${parsed.error.message}`);
    }
    events.push(parsed.data);
  });
  return { events, byTopic };
}
