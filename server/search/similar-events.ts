/** Events like a given one, by meaning: its own vector against the others, never itself. */
import type { Sql } from "postgres";
import type { StoredEvent } from "../../shared/api-schemas.ts";
import { currentVectorOf } from "../db/event-vector.ts";
import type { EventFilters } from "../db/event-filters.ts";
import { rankByVector, type RankedEvent } from "./ranked-events.ts";
import type { AiSearch } from "../embeddings/ai-search.ts";

/** Similar events best first, or why there can be none. */
export type SimilarEvents =
  | { kind: "ranked"; hits: RankedEvent[] }
  | { kind: "unavailable"; reason: string }
  | { kind: "not_in_ai_search" };

/**
 * Up to `limit` events nearest to `event` within the filters (upcoming unless `from` says
 * otherwise), never the event itself. None when the event is not in AI search (its neighbours
 * would be found by a vector it may not have) or AI search is unavailable: semantic results only
 * ever hold events in AI search.
 */
export async function rankSimilarEvents(
  sql: Sql,
  ai: AiSearch,
  options: { event: StoredEvent; limit: number; filters?: Omit<EventFilters, "q"> },
): Promise<SimilarEvents> {
  const { event, limit } = options;
  const status = await ai.availability.status();
  if (!status.available) return { kind: "unavailable", reason: status.reason };
  if (!event.in_ai_search) return { kind: "not_in_ai_search" };
  const vector = await currentVectorOf(sql, event.id, status.model);
  if (!vector) return { kind: "not_in_ai_search" };
  const hits = await rankByVector(
    sql,
    { vector, model: status.model, iterativeScan: status.iterativeScan },
    options.filters ?? {},
    limit + 1,
  );
  return { kind: "ranked", hits: hits.filter((h) => h.event.id !== event.id).slice(0, limit) };
}

/** Up to `limit` upcoming events like `event`; empty when there can be none. */
export async function similarEvents(
  sql: Sql,
  ai: AiSearch,
  options: { event: StoredEvent; limit: number },
): Promise<StoredEvent[]> {
  const similar = await rankSimilarEvents(sql, ai, options);
  return similar.kind === "ranked" ? similar.hits.map((hit) => hit.event) : [];
}
