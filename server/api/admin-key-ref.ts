/** How operator endpoints name a key in the path, and how they show one. */
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { type ApiKeyRecord, findApiKeyByRef } from "../db/api-keys.ts";
import { AppError } from "../errors.ts";
import { isUuid } from "../uuid.ts";
import { isDisplayPrefix } from "../../shared/api-key-format.ts";
import { ApiKeyView } from "../../shared/key-schemas.ts";

/** The `{ref}` path parameter. */
export const KeyRefParams = z.object({
  ref: z.string().meta({
    description: "The key's id, or its display prefix (evk_ and 8 characters).",
  }),
});

/** A key answer's body. */
export const KeyData = z.object({ data: ApiKeyView });

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** A key record as the API shows it. */
export function keyView(record: ApiKeyRecord): ApiKeyView {
  return {
    id: record.id,
    prefix: record.prefix,
    name: record.name,
    contributor: record.contributor,
    contributor_id: record.contributor_id,
    scopes: record.scopes as ApiKeyView["scopes"],
    status: record.status,
    trusted: record.trusted,
    rate_limit_per_minute: record.rate_limit_per_minute,
    created_by: record.created_by,
    created_at: record.created_at.toISOString(),
    expires_at: iso(record.expires_at),
    first_batch_at: iso(record.first_batch_at),
    reviewed_at: iso(record.reviewed_at),
    reviewed_by: record.reviewed_by,
    revoked_at: iso(record.revoked_at),
    last_used_at: iso(record.last_used_at),
  };
}

/** The key named by `ref` (an id or a display prefix), or 404. */
export async function keyFromPath(c: Context<AppEnv>, ref: string): Promise<ApiKeyRecord> {
  // Only an id or a prefix can name a key; anything else (say, with NUL) must not reach SQL.
  const record = (isUuid(ref) || isDisplayPrefix(ref))
    ? await findApiKeyByRef(c.get("deps").db.sql, ref)
    : null;
  if (!record) {
    throw new AppError("not_found", `No API key has the id or prefix ${JSON.stringify(ref)}.`);
  }
  return record;
}

/** The key as it is now, after a change. */
export async function currentKeyView(c: Context<AppEnv>, keyId: string): Promise<ApiKeyView> {
  return keyView((await findApiKeyByRef(c.get("deps").db.sql, keyId))!);
}

/** Who makes an operator decision: the operator key's display prefix, or ADMIN_API_KEY. */
export function operatorName(c: Context<AppEnv>): string {
  const principal = c.get("principal");
  return principal.keyId === null ? "ADMIN_API_KEY" : principal.prefix;
}
