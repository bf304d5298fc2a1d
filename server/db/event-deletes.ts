/**
 * Deleting events. A deleted event leaves listings, search, feeds and the site at once; its vector
 * and embedding claim go with it (ON DELETE CASCADE), and the same (external_id, platform) pushed
 * later is a new event.
 *
 * Every delete tells the saved searches that told of a deleted event of its removal, in its
 * transaction (server/db/notices.ts).
 *
 * Every delete holds the duplicates lock before it touches an event: detection holds it while it
 * writes links, and a link's foreign key locks the two events it names, so a delete taking the
 * rows of several events in another order deadlocked with it (one of them failed).
 */
import type { Sql } from "postgres";
import { underDuplicatesLock } from "./duplicate-links.ts";
import { decideRemovals } from "./notices.ts";

/**
 * Deletes one event. With `contributorId`, only that contributor's event: another's is left
 * alone and reported as absent, so nobody learns that it exists. Returns whether one was deleted.
 */
export async function deleteEvent(
  sql: Sql,
  eventId: string,
  owner: { contributorId: string | null },
): Promise<boolean> {
  const rows = await underDuplicatesLock(sql, async (tx) => {
    const deleted = await tx<{ id: string }[]>`
      DELETE FROM events
      WHERE id = ${eventId}
        AND (${owner.contributorId}::uuid IS NULL OR contributor_id = ${owner.contributorId}::uuid)
      RETURNING id`;
    await decideRemovals(tx, deleted.map((d) => d.id));
    return deleted;
  });
  return rows.length > 0;
}

/**
 * Deletes every event of a contributor; returns how many. Run in a transaction holding the
 * duplicates lock (see the module comment).
 */
export async function deleteEventsOfContributor(sql: Sql, contributorId: string): Promise<number> {
  const deleted = await sql<{ id: string }[]>`
    DELETE FROM events WHERE contributor_id = ${contributorId} RETURNING id`;
  await decideRemovals(sql, deleted.map((d) => d.id));
  return deleted.length;
}

/** An event named by its contributor's pair. */
export interface EventPair {
  external_id: string;
  platform: string;
}

/**
 * Deletes the contributor's events named by `pairs` in one statement (so all or none) and says,
 * for each pair in order, whether it deleted an event. A pair named twice deletes once: its later
 * occurrences find nothing. Another contributor's events are never touched.
 */
export async function deleteEventsByPair(
  sql: Sql,
  contributorId: string,
  pairs: EventPair[],
): Promise<boolean[]> {
  const deleted = await underDuplicatesLock(sql, async (tx) => {
    const rows = await tx<(EventPair & { id: string })[]>`
      DELETE FROM events
      WHERE contributor_id = ${contributorId}::uuid
        AND (external_id, platform) IN (
          SELECT * FROM unnest(${pairs.map((p) => p.external_id)}::text[],
                               ${pairs.map((p) => p.platform)}::text[])
        )
      RETURNING id, external_id, platform`;
    await decideRemovals(tx, rows.map((r) => r.id));
    return rows;
  });
  const remaining = new Set(deleted.map((d) => JSON.stringify([d.platform, d.external_id])));
  return pairs.map((p) => remaining.delete(JSON.stringify([p.platform, p.external_id])));
}

/** Whether a contributor with this id exists. */
export async function contributorExists(sql: Sql, contributorId: string): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM contributors WHERE id = ${contributorId}::uuid) AS found`;
  return row.found;
}
