/** Remote followers of our actors, with their inboxes; blocked domains never receive. */
import type { Sql } from "postgres";
import { hostIsBlocked } from "./federation-blocks.ts";

/** A follower as delivery needs it. */
export interface FollowerRecord {
  follower_id: string;
  inbox: string;
  shared_inbox: string | null;
}

/** Records (or refreshes) a follower of `actor`. */
export async function addFollower(
  sql: Sql,
  follow: { actor: string; followerId: string; inbox: string; sharedInbox: string | null },
): Promise<void> {
  const domain = new URL(follow.followerId).host.toLowerCase();
  await sql`
    INSERT INTO federation_followers (actor_handle, follower_id, inbox, shared_inbox, domain)
    VALUES (${follow.actor}, ${follow.followerId}, ${follow.inbox}, ${follow.sharedInbox},
            ${domain})
    ON CONFLICT (actor_handle, follower_id) DO UPDATE
      SET inbox = EXCLUDED.inbox, shared_inbox = EXCLUDED.shared_inbox`;
}

/** Removes a follower of `actor`; true when there was one. */
export async function removeFollower(
  sql: Sql,
  unfollow: { actor: string; followerId: string },
): Promise<boolean> {
  const rows = await sql`
    DELETE FROM federation_followers
    WHERE actor_handle = ${unfollow.actor} AND follower_id = ${unfollow.followerId}
    RETURNING 1`;
  return rows.length > 0;
}

/**
 * A page of the followers of any of `actors` outside blocked domains, each once, by id, after
 * `after`.
 */
export async function listFollowers(
  sql: Sql,
  page: { actors: string[]; after?: string; limit: number },
): Promise<FollowerRecord[]> {
  return await sql<FollowerRecord[]>`
    SELECT DISTINCT ON (f.follower_id) f.follower_id, f.inbox, f.shared_inbox
    FROM federation_followers f
    WHERE f.actor_handle = ANY(${page.actors}::text[])
      AND f.follower_id > ${page.after ?? ""}
      AND NOT ${hostIsBlocked(sql, sql`f.domain`)}
    ORDER BY f.follower_id LIMIT ${page.limit}`;
}

/** How many follow `actor` (blocked domains left out). */
export async function countFollowers(sql: Sql, actor: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM federation_followers f
    WHERE f.actor_handle = ${actor}
      AND NOT ${hostIsBlocked(sql, sql`f.domain`)}`;
  return row.n;
}

/** Records many followers of `actor` in one statement (imports, benchmarks). */
export async function addFollowers(
  sql: Sql,
  batch: { actor: string; followers: { id: string; inbox: string; sharedInbox: string | null }[] },
): Promise<void> {
  const { followers } = batch;
  if (followers.length === 0) return;
  await sql`
    INSERT INTO federation_followers (actor_handle, follower_id, inbox, shared_inbox, domain)
    SELECT ${batch.actor}, f, i, s, lower(substring(f from '^[a-z]+://([^/]+)'))
    FROM unnest(${followers.map((f) => f.id)}::text[], ${followers.map((f) => f.inbox)}::text[],
                ${followers.map((f) => f.sharedInbox)}::text[]) AS t (f, i, s)
    ON CONFLICT (actor_handle, follower_id) DO NOTHING`;
}
