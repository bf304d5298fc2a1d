/** What the budgets of an unreviewed contributor count, inside the batch's transaction. */
import type { Sql } from "postgres";
import { isUnreviewed } from "./unreviewed-rule.ts";
import { notOver } from "./start-order.ts";

/**
 * Whether the contributor is unreviewed; if so, its row is locked until the transaction ends, so
 * that two batches of one contributor are counted one after the other and cannot both slip past
 * the budget. A reviewed contributor's batches take no lock.
 */
export async function lockIfUnreviewed(sql: Sql, contributorId: string): Promise<boolean> {
  const rows = await sql`
    SELECT id FROM contributors
    WHERE id = ${contributorId}::uuid AND ${isUnreviewed(sql, sql`${contributorId}::uuid`)}
    FOR NO KEY UPDATE`;
  return rows.length > 0;
}

/** How many of the contributor's stored events are not over yet. */
export async function countUpcomingEvents(sql: Sql, contributorId: string): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    SELECT count(*)::int AS count FROM events e
    WHERE e.contributor_id = ${contributorId}::uuid AND ${notOver(sql, sql`now()`)}`;
  return row.count;
}

/** How many of the contributor's keys can still be used (neither revoked nor expired). */
export async function countActiveKeys(sql: Sql, contributorId: string): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    SELECT count(*)::int AS count FROM api_keys
    WHERE contributor_id = ${contributorId}::uuid AND revoked_at IS NULL
      AND (expires_at IS NULL OR expires_at > now())`;
  return row.count;
}
