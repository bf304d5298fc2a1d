/** The duplicate rules' version and the progress of a re-detection under new rules. */
import type { Sql } from "postgres";
import { matchColumns, type MatchRow } from "./match-keys.ts";

/** An event as re-detection reads it: what the matcher needs, and whose it is. */
export type RedetectionRow = MatchRow & { contributor_id: string; platform: string };

const BEFORE_EVERY_ID = "00000000-0000-0000-0000-000000000000";

/**
 * The next `limit` events (in id order) that `version`'s rules have not looked at, recording
 * them as looked at; [] when every event has been. Locks the state until the transaction ends,
 * so servers sharing a database take turns instead of repeating each other's work.
 */
export async function claimRedetection(
  tx: Sql,
  o: { version: number; limit: number },
): Promise<RedetectionRow[]> {
  const [state] = await tx<{ version: number; redetected_through: string | null }[]>`
    SELECT version, redetected_through FROM duplicate_rules FOR UPDATE`;
  // Newer rules (a newer server on the same database) are never overwritten by older ones.
  if (state.version > o.version) return [];
  if (state.version === o.version && state.redetected_through === null) return [];
  const after = state.version === o.version ? state.redetected_through : BEFORE_EVERY_ID;
  const rows = await tx<RedetectionRow[]>`
    SELECT e.id, e.contributor_id, e.platform, ${matchColumns(tx)}
    FROM events e WHERE e.id > ${after} ORDER BY e.id LIMIT ${o.limit}`;
  await tx`UPDATE duplicate_rules SET version = ${o.version},
    redetected_through = ${rows.length === 0 ? null : rows[rows.length - 1].id}`;
  return rows;
}

/**
 * Records `version` as the database's rules when no event is stored (a new database), so that no
 * re-detection takes the first events pushed after the start.
 */
export async function adoptRulesWhenEmpty(sql: Sql, version: number): Promise<void> {
  await sql`UPDATE duplicate_rules SET version = ${version}, redetected_through = NULL
    WHERE version < ${version} AND NOT EXISTS (SELECT FROM events)`;
}

/** What re-detection reads of each of `ids`, in id order. */
export async function redetectionRowsOf(tx: Sql, ids: string[]): Promise<RedetectionRow[]> {
  if (ids.length === 0) return [];
  return await tx<RedetectionRow[]>`
    SELECT e.id, e.contributor_id, e.platform, ${matchColumns(tx)}
    FROM events e WHERE e.id = ANY(${ids}::uuid[]) ORDER BY e.id`;
}
