/** Links between listings (detected or an operator's) and the groups they form. */
import type { Sql } from "postgres";
import { holdLock, underLock } from "./advisory-lock.ts";

/** A link between two listings (a < b). */
export interface Link {
  a: string;
  b: string;
  kind: "detected" | "same" | "not_same";
  score: number;
}

/** A pair detection found to be one event, and how alike (a < b). */
export type DetectedLink = Omit<Link, "kind">;

// Any fixed number: the advisory lock that serialises detection (lockDuplicates).
const DUPLICATES_LOCK_ID = 4_711_017;

/**
 * Holds the duplicates lock until the transaction ends (advisory-lock.ts): detections take turns,
 * so two batches never miss each other's listings or write one group twice.
 */
export function lockDuplicates(sql: Sql): Promise<void> {
  return holdLock(sql, DUPLICATES_LOCK_ID, "generic plans");
}

/** Runs `work` in a transaction of its own, holding the duplicates lock (lockDuplicates). */
export function underDuplicatesLock<T>(sql: Sql, work: (tx: Sql) => Promise<T>): Promise<T> {
  return underLock(sql, DUPLICATES_LOCK_ID, "generic plans", work);
}

/**
 * Replaces the detected links touching the events `replacing` with `links`; operators' links
 * stay as they are. One statement: a link found again is kept (its score updated), and only
 * those not found again are removed. Returns which of `grouped` are in some group (read in the
 * same round trip, before the writes).
 */
export async function replaceDetectedLinks(
  sql: Sql,
  o: { replacing: string[]; links: DetectedLink[]; grouped: string[] },
): Promise<{ grouped: string[] }> {
  const { replacing: ids, links } = o;
  // The delete spares the pairs found again, so it and the upsert touch different rows.
  const [row] = await sql<{ grouped: string[] }[]>`
    WITH fresh AS (
      SELECT * FROM unnest(${links.map((l) => l.a)}::uuid[], ${links.map((l) => l.b)}::uuid[],
                           ${links.map((l) => l.score)}::real[]) AS x(a, b, score)
    ), gone AS (
      DELETE FROM event_links l
      WHERE l.kind = 'detected' AND (l.a = ANY(${ids}::uuid[]) OR l.b = ANY(${ids}::uuid[]))
        AND NOT EXISTS (SELECT 1 FROM fresh f WHERE f.a = l.a AND f.b = l.b)
    ), written AS (
      INSERT INTO event_links (a, b, kind, score)
      SELECT a, b, 'detected', score FROM fresh f
      -- A listing deleted since it was found links nothing.
      WHERE EXISTS (SELECT FROM events e WHERE e.id = f.a)
        AND EXISTS (SELECT FROM events e WHERE e.id = f.b)
      ON CONFLICT (a, b) DO UPDATE SET score = EXCLUDED.score
        WHERE event_links.kind = 'detected' AND event_links.score <> EXCLUDED.score
    )
    SELECT ARRAY(SELECT event_id::text FROM event_group_members
            WHERE event_id = ANY(${o.grouped}::uuid[])) AS grouped`;
  return row;
}

/** Records an operator's decision on a pair, replacing whatever link the pair had. */
export async function decideLink(
  sql: Sql,
  pair: { a: string; b: string; same: boolean; decidedBy: string },
): Promise<void> {
  const [a, b] = pair.a < pair.b ? [pair.a, pair.b] : [pair.b, pair.a];
  await sql`
    INSERT INTO event_links (a, b, kind, score, decided_by)
    VALUES (${a}, ${b}, ${pair.same ? "same" : "not_same"}, 1, ${pair.decidedBy})
    ON CONFLICT (a, b) DO UPDATE SET kind = EXCLUDED.kind, score = EXCLUDED.score,
      decided_by = EXCLUDED.decided_by, decided_at = now()`;
}

/** Events linked as the same to another but in no group: left so when a canonical was deleted. */
export async function ungroupedLinkedEvents(sql: Sql, limit: number): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    SELECT DISTINCT x.id FROM event_links l
    CROSS JOIN LATERAL (VALUES (l.a), (l.b)) AS x(id)
    WHERE l.kind <> 'not_same'
      AND NOT EXISTS (SELECT 1 FROM event_group_members m WHERE m.event_id = x.id)
    LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

/** The events in some group that `keyId` last wrote (whose canonical choice follows its trust). */
export async function groupedEventsOfKey(sql: Sql, keyId: string): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    SELECT m.event_id AS id FROM event_group_members m JOIN events e ON e.id = m.event_id
    WHERE e.last_key_id = ${keyId}::uuid`;
  return rows.map((r) => r.id);
}

/** Which of `ids` are events. */
export async function existingEvents(sql: Sql, ids: string[]): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`SELECT id FROM events WHERE id = ANY(${ids}::uuid[])`;
  return rows.map((r) => r.id);
}

/** What the canonical rule reads of an event. */
export interface CanonicalFacts {
  id: string;
  trusted: boolean;
  completeness: number;
  created_at: Date;
}

/**
 * The component of `ids` and the events grouped with them, reached through links (at most
 * `maxDepth` steps and `maxEvents` events more), with what the canonical rule reads of each.
 */
export async function componentOf(
  sql: Sql,
  o: { ids: string[]; maxDepth: number; maxEvents: number },
): Promise<{ ids: string[]; links: Link[]; facts: CanonicalFacts[] }> {
  if (o.ids.length === 0) return { ids: [], links: [], facts: [] };
  const [row] = await sql<{ seeds: string[]; links: Link[]; facts: CanonicalFacts[] }[]>`
    WITH RECURSIVE seed AS (
      SELECT unnest(${o.ids}::uuid[]) AS id
      UNION
      SELECT g.event_id FROM event_group_members m
      JOIN event_group_members g ON g.group_id = m.group_id
      WHERE m.event_id = ANY(${o.ids}::uuid[])
    ), reach(id, depth) AS (
      SELECT id, 0 FROM seed
      UNION
      -- Each side of a link through its own index: a join on "a = id OR b = id" read every link
      -- at each step, a cost that grew with the table.
      SELECT n.id, r.depth + 1
      FROM reach r
      CROSS JOIN LATERAL (
        SELECT l.b AS id FROM event_links l WHERE l.a = r.id
        UNION ALL
        SELECT l.a FROM event_links l WHERE l.b = r.id
      ) n
      WHERE r.depth < ${o.maxDepth}
    ), members AS (
      -- Bounded beyond those asked for: cutting these left a big batch linked but ungrouped.
      SELECT id FROM reach GROUP BY id ORDER BY min(depth)
      LIMIT (SELECT count(*) FROM seed) + ${o.maxEvents}
    ), found AS (
      -- LATERAL with OFFSET 0: each member's links through the index. Joined plainly, the
      -- planner read every link (10 ms a batch at 100,000 events on PGlite).
      SELECT l.a, l.b, l.kind, l.score
      FROM members m
      CROSS JOIN LATERAL (
        SELECT l.a, l.b, l.kind, l.score FROM event_links l WHERE l.a = m.id OFFSET 0
      ) l
      WHERE l.b IN (SELECT id FROM members)
    ), component AS (
      SELECT id FROM seed UNION SELECT a FROM found UNION SELECT b FROM found
    )
    SELECT
      ARRAY(SELECT id::text FROM seed) AS seeds,
      (SELECT coalesce(json_agg(found), '[]') FROM found) AS links,
      (SELECT coalesce(json_agg(f), '[]') FROM (
        SELECT e.id, (k.trusted AND k.revoked_at IS NULL) AS trusted, e.created_at,
          (num_nonnulls(e.description, e.ends_at, e.timezone, e.venue_name, e.city, e.country,
            e.latitude, e.is_hybrid, e.price_min, e.event_type, e.organiser_name,
            e.organiser_url, e.cover_image_url, e.attendee_count, e.capacity)
           + (cardinality(e.topics) > 0)::int + (cardinality(e.tags) > 0)::int) AS completeness
        FROM component c
        -- LATERAL with OFFSET 0: one read by primary key per event, however many the planner
        -- takes the component for (a semi-join may read every event).
        CROSS JOIN LATERAL (SELECT * FROM events e WHERE e.id = c.id OFFSET 0) e
        JOIN api_keys k ON k.id = e.last_key_id
      ) f) AS facts`;
  const ids = new Set([...row.seeds, ...row.links.flatMap((l) => [l.a, l.b])]);
  return {
    ids: [...ids],
    links: row.links,
    facts: row.facts.map((f) => ({ ...f, created_at: new Date(f.created_at) })),
  };
}

/**
 * Makes `members` the group rows of `ids` (whose events must all be among `ids`), in one
 * statement: rows that stay as they were are not written again. A group is named by its
 * canonical member.
 */
export async function replaceGroupMembers(
  sql: Sql,
  ids: string[],
  members: { event_id: string; group_id: string }[],
): Promise<void> {
  if (ids.length === 0) return;
  // The upsert and the delete touch different rows: the delete spares the new members.
  await sql`
    WITH fresh AS (
      SELECT event_id, group_id, event_id = group_id AS canonical
      FROM unnest(${members.map((m) => m.event_id)}::uuid[],
                  ${members.map((m) => m.group_id)}::uuid[]) AS x(event_id, group_id)
    ), written AS (
      INSERT INTO event_group_members (event_id, group_id, canonical)
      SELECT event_id, group_id, canonical FROM fresh
      ON CONFLICT (event_id) DO UPDATE
        SET group_id = EXCLUDED.group_id, canonical = EXCLUDED.canonical
        WHERE (event_group_members.group_id, event_group_members.canonical)
          IS DISTINCT FROM (EXCLUDED.group_id, EXCLUDED.canonical)
    )
    DELETE FROM event_group_members
    WHERE event_id = ANY(${ids}::uuid[]) AND event_id <> ALL(${
    members.map((m) => m.event_id)
  }::uuid[])`;
}
