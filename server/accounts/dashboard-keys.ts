/**
 * Keys made in the dashboard: what a contributor may choose (scope `events:write` only, never
 * `admin`; an expiry of 30, 90 or 365 days, or none), made by the same issueApiKey as the
 * operator API.
 */
import { z } from "zod";
import type { AppDeps } from "../app-env.ts";
import type { ApiKeyRecord } from "../db/api-keys.ts";
import { listApiKeys } from "../db/api-keys.ts";
import { issueApiKey } from "../auth/issue-api-key.ts";
import type { Viewer } from "./viewer.ts";

/** The scopes a contributor may give their own keys. */
export const CONTRIBUTOR_SCOPES = ["events:write"] as const;

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
    z.array(scope).min(1, { message: "Choose at least one scope: events:write." }),
  ),
  lifetime: z.enum(KEY_LIFETIMES, { error: () => "Choose when the key expires." }),
});

export type NewKeyForm = z.output<typeof NewKeyForm>;

/** When a key made now with `lifetime` expires. */
export function expiryOf(lifetime: NewKeyForm["lifetime"], now: Date): Date | null {
  return lifetime === "never" ? null : new Date(now.getTime() + Number(lifetime) * 86_400_000);
}

/** Makes the key; the full key is in the answer, and nowhere else ever again. */
export async function createContributorKey(
  deps: AppDeps,
  options: { viewer: Viewer; form: NewKeyForm },
): Promise<{ key: string; record: ApiKeyRecord } | { problem: string }> {
  const { viewer, form } = options;
  const keys = await listApiKeys(deps.db.sql, { contributorId: viewer.contributorId });
  const now = new Date();
  const active = keys.filter((k) =>
    k.revoked_at === null && !(k.expires_at && k.expires_at <= now)
  );
  if (active.length >= MAX_ACTIVE_KEYS) {
    return {
      problem: `You have ${MAX_ACTIVE_KEYS} keys already: revoke one you no longer use first.`,
    };
  }
  return await issueApiKey(deps.db.sql, {
    contributor: viewer.contributorName,
    name: form.name,
    scopes: [...new Set(form.scopes)],
    rateLimitPerMinute: deps.config.defaultRateLimitPerMinute,
    createdBy: `dashboard:${viewer.email}`,
    expiresAt: expiryOf(form.lifetime, now),
  });
}
