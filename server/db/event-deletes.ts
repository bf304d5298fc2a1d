/**
 * Deleting events. A deleted event leaves listings, search, feeds and the site at once; its vector
 * and embedding claim go with it (ON DELETE CASCADE), and the same (external_id, platform) pushed
 * later is a new event.
 */
import type { Sql } from "postgres";

/**
 * Deletes one event. With `contributorId`, only that contributor's event: another's is left
 * alone and reported as absent, so nobody learns that it exists. Returns whether one was deleted.
 */
export async function deleteEvent(
  sql: Sql,
  eventId: string,
  owner: { contributorId: string | null },
): Promise<boolean> {
  const rows = await sql`
    DELETE FROM events
    WHERE id = ${eventId}
      AND (${owner.contributorId}::uuid IS NULL OR contributor_id = ${owner.contributorId}::uuid)
    RETURNING id`;
  return rows.length > 0;
}

/** Deletes every event of a contributor; returns how many. */
export async function deleteEventsOfContributor(sql: Sql, contributorId: string): Promise<number> {
  const result = await sql`DELETE FROM events WHERE contributor_id = ${contributorId}`;
  return result.count;
}
