/**
 * Who is an unreviewed contributor: one that signed up on the site (or holds a key made on the
 * dashboard) and has no word of an operator for it, that is no key an operator made and no
 * trusted, unrevoked key. Budgets, the
 * fair front page and the review queue all call this one fragment.
 */
import type { Fragment, Sql } from "postgres";

/** On any expression naming a contributor's id: whether that contributor is unreviewed. */
export function isUnreviewed(sql: Sql, contributorId: Fragment): Fragment {
  return sql`(
    (EXISTS (SELECT 1 FROM accounts ra WHERE ra.contributor_id = ${contributorId})
     OR EXISTS (SELECT 1 FROM api_keys rk WHERE rk.contributor_id = ${contributorId}
                AND rk.self_service))
    AND NOT EXISTS (SELECT 1 FROM api_keys rk WHERE rk.contributor_id = ${contributorId}
            AND (NOT rk.self_service OR (rk.trusted AND rk.revoked_at IS NULL)))
  )`;
}

/** The ids of every unreviewed contributor: a sub-select. */
export function unreviewedContributorIds(sql: Sql): Fragment {
  return sql`(SELECT c.id FROM contributors c WHERE ${isUnreviewed(sql, sql`c.id`)})`;
}

/** Whether the contributor is unreviewed now. */
export async function contributorIsUnreviewed(sql: Sql, contributorId: string): Promise<boolean> {
  const [row] = await sql<{ unreviewed: boolean }[]>`
    SELECT ${isUnreviewed(sql, sql`${contributorId}::uuid`)} AS unreviewed`;
  return row.unreviewed;
}
