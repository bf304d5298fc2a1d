/**
 * Work that takes turns across servers: a transaction of its own holding an advisory lock, the
 * lock released at its end. Duplicate detection and saved-search matching each hold one.
 */
import type { Sql } from "postgres";

/** Set on a session whose locked work runs on generic plans (PGlite's: connect.ts). */
export const GENERIC_PLANS_SETTING = "tech_events.generic_plans";

/** How the work under a lock is planned (holdLock). */
export type PlanChoice = "generic plans" | "custom plans";

/**
 * Holds advisory lock `id` until the transaction ends. With "generic plans", on the embedded
 * database the rest of the transaction runs on generic plans: PGlite plans on its one thread, over
 * half of what detection's statements cost it at 100,000 events. With "custom plans" the rest of
 * the transaction is planned for its values on both databases, never on a cached generic plan:
 * a generic plan of saved-search matching's statement, blind to the batch's size and the
 * searches' anchors, took 108 instead of 9 ms a batch on PGlite. No connection compiles with JIT (connect.ts).
 */
export async function holdLock(sql: Sql, id: number, plans: PlanChoice): Promise<void> {
  await sql`
    SELECT pg_advisory_xact_lock(${id}),
           CASE WHEN ${plans === "custom plans"}
             THEN set_config('plan_cache_mode', 'force_custom_plan', true)
           WHEN current_setting(${GENERIC_PLANS_SETTING}, true) = 'on'
             THEN set_config('plan_cache_mode', 'force_generic_plan', true) END`;
}

/** Runs `work` in a transaction of its own, holding advisory lock `id` (holdLock). */
export async function underLock<T>(
  sql: Sql,
  id: number,
  plans: PlanChoice,
  work: (tx: Sql) => Promise<T>,
): Promise<T> {
  return await sql.begin(async (transaction) => {
    // postgres.js types a transaction apart from the pool, though both run the same queries.
    const tx = transaction as unknown as Sql;
    await holdLock(tx, id, plans);
    return await work(tx);
  }) as T;
}
