/**
 * Which phrases of a query name a city or a country of the stored events (the data's own facets),
 * and which are also a topic label. One statement (event_places_named, migration 012); each phrase
 * costs a few index pages (events_city_idx, events_country_idx, events_topics_lower_idx of 008).
 */
import type { Sql } from "postgres";

/** A phrase and what the events say it is: spelt as most of them spell it, null when not. */
export interface NamedPlace {
  phrase: string;
  city: string | null;
  country: string | null;
  /** Some event carries it as a topic: then the phrase may mean the topic. */
  topic: boolean;
}

/** For each phrase (lower-cased), the city and country it names among the events, if any. */
export async function placesNamed(sql: Sql, phrases: string[]): Promise<NamedPlace[]> {
  if (phrases.length === 0) return [];
  return await sql<NamedPlace[]>`
    SELECT phrase, city, country, topic FROM event_places_named(${phrases}::text[])`;
}
