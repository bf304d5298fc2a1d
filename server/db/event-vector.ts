/** The stored vector of one event, for finding events similar to it. Needs pgvector. */
import type { Sql } from "postgres";
import { vectorIsCurrent } from "./ai-search-rule.ts";

/**
 * The event's current vector (see ai-search-rule.ts) of `model`, or of the model search compares
 * against when none is given; null when it has none, or an outdated one.
 */
export async function currentVectorOf(
  sql: Sql,
  eventId: string,
  model?: string,
): Promise<number[] | null> {
  const [row] = await sql<{ vector: string }[]>`
    SELECT v.embedding::text AS vector
    FROM event_embeddings v JOIN events e ON e.id = v.event_id
    WHERE v.event_id = ${eventId} AND ${vectorIsCurrent(sql, model)}`;
  // pgvector's text form, [0.1,0.2,...], is a JSON array.
  return row ? JSON.parse(row.vector) : null;
}
