/** The stored vector of one event, for finding events similar to it. */
import type { Sql } from "postgres";

/**
 * The event's vector of the model search compares against, or null. Call only where AI search is
 * available (the vector column exists only then), and only for an event in AI search: that is
 * what makes the vector current (see eventColumns in event-reads.ts).
 */
export async function storedVectorOf(sql: Sql, eventId: string): Promise<number[] | null> {
  const [row] = await sql<{ embedding: string }[]>`
    SELECT v.embedding::text AS embedding
    FROM event_embeddings v JOIN embedding_model m ON m.model = v.model
    WHERE v.event_id = ${eventId}`;
  // pgvector's text form, [0.1,0.2,...], is a JSON array.
  return row ? JSON.parse(row.embedding) : null;
}
