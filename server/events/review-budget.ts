/**
 * The upcoming-events budget of an unreviewed contributor (docs/unreviewed-contributors.md): a
 * batch that would leave more stored upcoming events than the budget is refused whole.
 */
import type { Sql } from "postgres";
import type { Principal } from "../app-env.ts";
import { countUpcomingEvents, lockIfUnreviewed } from "../db/contributor-budget.ts";
import { AppError } from "../errors.ts";

/** Thrown inside the batch's transaction to roll it back; turned into the API's refusal after. */
export class OverBudget extends Error {
  override name = "OverBudget";
  constructor(readonly limit: number) {
    super(`Cannot store the batch: over the budget of ${limit} upcoming events`);
  }
}

/**
 * Inside the batch's transaction, before the upsert: whether this batch counts against the
 * budget. Only a dashboard key that is not trusted can be limited, so trusted and operator-made
 * keys never pay for the check's query.
 */
export async function budgetApplies(tx: Sql, principal: Principal): Promise<boolean> {
  if (!principal.selfService || principal.trusted || principal.contributorId === null) {
    return false;
  }
  return await lockIfUnreviewed(tx, principal.contributorId);
}

/** Inside the transaction, after the upsert: throws OverBudget when the contributor is past it. */
export async function checkUpcomingBudget(
  tx: Sql,
  options: { contributorId: string; limit: number },
): Promise<void> {
  if (await countUpcomingEvents(tx, options.contributorId) > options.limit) {
    throw new OverBudget(options.limit);
  }
}

/** The refusal a client sees, saying the limit, what is stored, and how review lifts it. */
export async function budgetRefusal(
  sql: Sql,
  options: { contributorId: string; limit: number },
): Promise<AppError> {
  const stored = await countUpcomingEvents(sql, options.contributorId);
  return new AppError(
    "review_budget_exceeded",
    `Nothing was stored: an unreviewed contributor may have at most ${options.limit} upcoming ` +
      `events, you have ${stored} stored and this batch would take you past the limit. Delete ` +
      "events you no longer need, or wait for an operator's review: once an operator trusts " +
      "one of your keys, the limit no longer applies.",
  );
}
