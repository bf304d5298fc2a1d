/** Events like a given one, by meaning: its own vector against the others, upcoming only. */
import type { Sql } from "postgres";
import type { StoredEvent } from "../../shared/api-schemas.ts";
import { currentVectorOf } from "../db/event-vector.ts";
import { rankByVector } from "../db/event-search.ts";
import type { AiSearch } from "../embeddings/ai-search.ts";

/**
 * Up to `limit` upcoming events nearest to `event`, never the event itself. Empty when the event
 * is not in AI search (its neighbours would be found by a vector it may not have) or AI search is
 * unavailable: semantic results only ever hold events in AI search.
 */
export async function similarEvents(
  sql: Sql,
  ai: AiSearch,
  options: { event: StoredEvent; limit: number },
): Promise<StoredEvent[]> {
  const { event, limit } = options;
  if (!event.in_ai_search) return [];
  const status = await ai.availability.status();
  if (!status.available) return [];
  const vector = await currentVectorOf(sql, event.id, status.model);
  if (!vector) return [];
  const hits = await rankByVector(
    sql,
    { vector, model: status.model, iterativeScan: status.iterativeScan },
    {},
    limit + 1,
  );
  return hits.map((hit) => hit.event).filter((e) => e.id !== event.id).slice(0, limit);
}
