/**
 * Operator review of keys: a key with its first batch, trust and untrust, and its rate limit.
 * Trust changes wake the embedding worker, which embeds every event the key last wrote.
 */
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { findApiKeyByRef } from "../db/api-keys.ts";
import { firstBatchOf, setKeyRateLimit } from "../db/key-trust.ts";
import { trustKey, untrustKey } from "../auth/key-decisions.ts";
import { toValidationDetails } from "../../shared/validation-details.ts";
import { validationError } from "../errors.ts";
import { keyFromPath, keyView } from "./admin-keys.ts";
import { readJsonBody } from "./read-json-body.ts";

/** Who made a decision: the operator key's display prefix, or the name of the env variable. */
function decidedBy(c: Context<AppEnv>): string {
  const principal = c.get("principal");
  return principal.keyId === null ? "ADMIN_API_KEY" : principal.prefix;
}

async function currentView(c: Context<AppEnv>, keyId: string) {
  const record = await findApiKeyByRef(c.get("deps").db.sql, keyId);
  return keyView(record!);
}

/** GET /api/v1/admin/keys/{ref}: the key and its first accepted batch (null before one). */
export async function getKeyHandler(c: Context<AppEnv>): Promise<Response> {
  const key = await keyFromPath(c);
  const firstBatch = await firstBatchOf(c.get("deps").db.sql, key.id);
  return c.json({ data: { ...keyView(key), first_batch: firstBatch } });
}

/** POST /api/v1/admin/keys/{ref}/trust: the key's events enter AI search. */
export async function trustKeyHandler(c: Context<AppEnv>): Promise<Response> {
  const key = await keyFromPath(c);
  await trustKey(c.get("deps"), key, decidedBy(c));
  return c.json({ data: await currentView(c, key.id) });
}

/** POST /api/v1/admin/keys/{ref}/untrust: the key's events leave AI search at once. */
export async function untrustKeyHandler(c: Context<AppEnv>): Promise<Response> {
  const key = await keyFromPath(c);
  await untrustKey(c.get("deps"), key, decidedBy(c));
  return c.json({ data: await currentView(c, key.id) });
}

const KeyPatch = z.strictObject({
  rate_limit_per_minute: z.number({ error: () => "rate_limit_per_minute must be a number" })
    .int({ message: "rate_limit_per_minute must be a whole number" })
    .min(1, { message: "rate_limit_per_minute must be at least 1" })
    .max(100_000, { message: "rate_limit_per_minute must be at most 100000" }),
});

/** PATCH /api/v1/admin/keys/{ref}: changes the key's rate limit. */
export async function patchKeyHandler(c: Context<AppEnv>): Promise<Response> {
  const key = await keyFromPath(c);
  const parsed = KeyPatch.safeParse(await readJsonBody(c));
  if (!parsed.success) throw validationError(toValidationDetails(parsed.error.issues));
  await setKeyRateLimit(c.get("deps").db.sql, key.id, parsed.data.rate_limit_per_minute);
  return c.json({ data: await currentView(c, key.id) });
}
