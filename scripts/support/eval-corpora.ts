/**
 * The evaluation's corpora, each a set of events with judged queries: which events answer each
 * query, known from labels the events' authors or organisers gave, never from the wording.
 */
import type { EventRecord } from "../../shared/event-schema.ts";
import { readConferenceData, topicLabel } from "./conference-events.ts";
import { readFosdemTalks } from "./eval-fosdem.ts";
import type { JudgedQuery } from "./eval-kinds.ts";
import { CONFERENCE_QUERIES } from "../eval-search-conferences.ts";
import { FOSDEM_QUERIES, FOSDEM_TOPICS } from "../eval-search-fosdem.ts";

/** A corpus ready to load: its events, queries, the ids answering each, and label words. */
export interface Corpus {
  name: string;
  source: string;
  events: EventRecord[];
  /** The filters every query runs with. */
  filters: { from?: Date };
  queries: JudgedQuery[];
  relevant(query: JudgedQuery): Set<string>;
  /** The words of a query's topic, which a paraphrase must not use. */
  labelWords(query: JudgedQuery): string;
}

export const CORPUS_NAMES = ["conferences", "fosdem"] as const;
export type CorpusName = typeof CORPUS_NAMES[number];

/** Reads one corpus. */
export async function readCorpus(name: CorpusName, now: Date): Promise<Corpus> {
  return name === "conferences" ? await conferences() : await fosdem(now);
}

async function conferences(): Promise<Corpus> {
  const data = await readConferenceData();
  const byId = new Map(data.events.map((e) => [e.external_id, e]));
  return {
    name: "conferences",
    source: "tech-conferences/conference-data: 862 conferences of 2025-2027, topic files",
    events: data.events,
    // Conferences of 2025-2027 are judged whether or not they are over.
    filters: { from: new Date("2000-01-01T00:00:00Z") },
    queries: CONFERENCE_QUERIES,
    relevant(query) {
      const ids = [...data.byTopic.get(query.topic) ?? []];
      const n = query.narrow;
      return new Set(ids.filter((id) => {
        const e = byId.get(id)!;
        if (n?.city && e.city !== n.city) return false;
        if (n?.country && e.country !== n.country) return false;
        if (n?.online && !e.is_virtual) return false;
        return true;
      }));
    },
    labelWords: (query) => `${topicLabel(query.topic) ?? ""} ${query.topic}`,
  };
}

async function fosdem(now: Date): Promise<Corpus> {
  const data = await readFosdemTalks({ now });
  return {
    name: "fosdem",
    source: "FOSDEM 2025 and 2026 schedules: 1,826 talks, title and abstract, judged by track",
    events: data.events,
    // Every talk is upcoming (scripts/support/eval-fosdem.ts).
    filters: {},
    queries: FOSDEM_QUERIES,
    relevant(query) {
      const tracks = new Set(FOSDEM_TOPICS[query.topic]);
      return new Set(
        [...data.talks.values()]
          .filter((t) =>
            tracks.has(t.track) && (!query.narrow?.year || t.year === query.narrow.year)
          )
          .map((t) => t.id),
      );
    },
    labelWords: (query) => FOSDEM_TOPICS[query.topic].join(" "),
  };
}
