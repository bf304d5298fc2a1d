/** The stored vector of one event, for "similar events". Needs the vector store (pgvector). */
import type { Sql } from "postgres";

/** The event's current vector of `model`, or null when it has none (or an outdated one). */
export async function currentVectorOf(
  sql: Sql,
  eventId: string,
  model: string,
): Promise<number[] | null> {
  const [row] = await sql<{ vector: string }[]>`
    SELECT v.embedding::text AS vector
    FROM event_embeddings v JOIN events e ON e.id = v.event_id
    WHERE v.event_id = ${eventId} AND v.model = ${model} AND v.content_hash = e.content_hash`;
  return row ? JSON.parse(row.vector) : null;
}
