/**
 * Keys made in the dashboard: what a contributor may choose (scopes `events:write` and
 * `searches:write`, never `admin`; an expiry of 30, 90 or 365 days, or none), made by the same
 * issueApiKey as the operator API.
 */
import type { Sql } from "postgres";
import { z } from "zod";
import type { AppDeps } from "../app-env.ts";
import { unreviewedBudgets } from "../config.ts";
import type { ApiKeyRecord } from "../db/api-keys.ts";
import { countActiveKeys, lockIfUnreviewed } from "../db/contributor-budget.ts";
import { issueApiKey } from "../auth/issue-api-key.ts";
import type { Viewer } from "./viewer.ts";

/** The scopes a contributor may give their own keys. */
export const CONTRIBUTOR_SCOPES = ["events:write", "searches:write"] as const;

/** Lifetimes offered, in days; "never" has no end. */
export const KEY_LIFETIMES = ["30", "90", "365", "never"] as const;

/** Keys a contributor may hold at once (revoked and expired ones do not count). */
export const MAX_ACTIVE_KEYS = 25;

const scope = z.enum(CONTRIBUTOR_SCOPES, {
  error: () => `A key made here may only hold ${CONTRIBUTOR_SCOPES.join(", ")}.`,
});

export const NewKeyForm = z.object({
  name: z.string({ error: () => "Give the key a name." }).trim()
    .min(1, { message: "Give the key a name, such as “meetup scraper”." })
    .max(100, { message: "A key name may have at most 100 characters." }),
  // One checked box arrives as a string, several as an array.
  scopes: z.preprocess(
    (v) => (typeof v === "string" ? [v] : v ?? []),
    z.array(scope).min(1, {
      message: "Choose at least one scope: events:write or searches:write.",
    }),
  ),
  lifetime: z.enum(KEY_LIFETIMES, { error: () => "Choose when the key expires." }),
});

export type NewKeyForm = z.output<typeof NewKeyForm>;

/** When a key made now with `lifetime` expires. */
export function expiryOf(lifetime: NewKeyForm["lifetime"], now: Date): Date | null {
  return lifetime === "never" ? null : new Date(now.getTime() + Number(lifetime) * 86_400_000);
}

/**
 * Makes the key; the full key is in the answer, and nowhere else ever again. An unreviewed
 * contributor (docs/unreviewed-contributors.md) may hold fewer keys, and its new keys get the
 * lower rate limit; the count and the insert share a lock, so two forms sent at once cannot
 * both pass the limit.
 */
export async function createContributorKey(
  deps: AppDeps,
  options: { viewer: Viewer; form: NewKeyForm },
): Promise<{ key: string; record: ApiKeyRecord } | { problem: string }> {
  const { viewer, form } = options;
  const budgets = unreviewedBudgets(deps.config);
  return await deps.db.sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    const unreviewed = await lockIfUnreviewed(tx, viewer.contributorId);
    const max = unreviewed ? budgets.maxKeys : MAX_ACTIVE_KEYS;
    const active = await countActiveKeys(tx, viewer.contributorId);
    if (active >= max) {
      return {
        problem: unreviewed
          ? `You have ${active} keys already, the most an account may hold until an operator ` +
            `has reviewed its events (${max}): revoke one you no longer use first.`
          : `You have ${MAX_ACTIVE_KEYS} keys already: revoke one you no longer use first.`,
      };
    }
    return await issueApiKey(tx, {
      contributor: viewer.contributorName,
      name: form.name,
      scopes: [...new Set(form.scopes)],
      rateLimitPerMinute: unreviewed
        ? Math.min(budgets.rateLimitPerMinute, deps.config.defaultRateLimitPerMinute)
        : deps.config.defaultRateLimitPerMinute,
      createdBy: `dashboard:${viewer.email}`,
      expiresAt: expiryOf(form.lifetime, new Date()),
      selfService: true,
    });
  });
}
