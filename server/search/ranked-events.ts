/**
 * Rankings with whole events: server/db/text-matches.ts and server/db/vector-matches.ts rank ids,
 * and the events of the page kept are read here, once.
 */
import type { Sql } from "postgres";
import type { StoredEvent } from "../../shared/api-schemas.ts";
import type { EventFilters } from "../db/event-filters.ts";
import { getEventsByIds, listEvents } from "../db/event-reads.ts";
import { type Match, textMatches } from "../db/text-matches.ts";
import { vectorMatches, type VectorQuery } from "../db/vector-matches.ts";

/** An event with the score of one ranking. */
export interface RankedEvent {
  event: StoredEvent;
  score: number;
}

/** The text ranking with whole events (see textMatches). */
export async function rankByText(
  sql: Sql,
  query: string,
  filters: Omit<EventFilters, "q">,
  limit: number,
): Promise<RankedEvent[]> {
  const matches = await textMatches(sql, query, filters, limit);
  return await withEvents(sql, matches.map(({ id, score }) => ({ id, score })));
}

/**
 * A page of a ranking, then, where it holds fewer than `limit`, the other events within the
 * filters, soonest first, at score 0 (they matched nothing the ranking scores).
 */
export async function thenSoonest<T extends RankedEvent>(
  sql: Sql,
  ranked: T[],
  filters: Omit<EventFilters, "q">,
  limit: number,
): Promise<(T | RankedEvent)[]> {
  if (ranked.length >= limit) return ranked;
  const held = new Set(ranked.map((r) => r.event.id));
  // As many more as the page may already hold: those are skipped.
  const { events } = await listEvents(sql, filters, { limit: limit + ranked.length });
  const others = events.filter((e) => !held.has(e.id)).slice(0, limit - ranked.length);
  return [...ranked, ...others.map((event) => ({ event, score: 0 }))];
}

/** The vector ranking with whole events (see vectorMatches). */
export async function rankByVector(
  sql: Sql,
  q: VectorQuery,
  filters: Omit<EventFilters, "q">,
  limit: number,
): Promise<RankedEvent[]> {
  return await withEvents(sql, await vectorMatches(sql, q, filters, limit));
}

/** The matches' events in the matches' order (an event deleted meanwhile is left out). */
export async function withEvents<T extends Pick<Match, "id">>(
  sql: Sql,
  matches: T[],
): Promise<(Omit<T, "id"> & { event: StoredEvent })[]> {
  if (matches.length === 0) return [];
  const events = new Map(
    (await getEventsByIds(sql, matches.map((m) => m.id))).map((e) => [e.id, e]),
  );
  return matches.flatMap(({ id, ...rest }) => {
    const event = events.get(id);
    return event ? [{ ...rest, event }] : [];
  });
}
