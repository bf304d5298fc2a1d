/**
 * Operator and contributor decisions on a key, each with its rule and its side effects in one
 * place, for the operator API, the review queue and the dashboard alike.
 */
import type { AppDeps } from "../app-env.ts";
import { type ApiKeyRecord, revokeApiKey } from "../db/api-keys.ts";
import { setKeyTrust } from "../db/key-trust.ts";
import { AppError } from "../errors.ts";
import { regroupAfterTrustChange } from "../duplicates/operator-decisions.ts";

type Deps = Pick<AppDeps, "db" | "ai">;

/** Trusts a key: its events enter AI search. A revoked key cannot be trusted (409). */
export async function trustKey(deps: Deps, key: ApiKeyRecord, decidedBy: string): Promise<void> {
  if (key.revoked_at !== null) {
    throw new AppError(
      "conflict",
      `Cannot trust the key ${key.prefix}: it was revoked at ${key.revoked_at.toISOString()}.`,
    );
  }
  await setKeyTrust(deps.db.sql, key.id, true, decidedBy);
  await regroupAfterTrustChange(deps.db.sql, key.id);
  deps.ai.wakeWorker();
}

/** Withdraws trust (or decides against it): the key's events leave AI search at once. */
export async function untrustKey(deps: Deps, key: ApiKeyRecord, decidedBy: string): Promise<void> {
  await setKeyTrust(deps.db.sql, key.id, false, decidedBy);
  await regroupAfterTrustChange(deps.db.sql, key.id);
  deps.ai.wakeWorker();
}

/** Revokes a key: 401 from its next request on; its events stay listed, out of AI search. */
export async function revokeKey(deps: Deps, key: ApiKeyRecord): Promise<ApiKeyRecord> {
  const revoked = await revokeApiKey(deps.db.sql, key.id);
  await regroupAfterTrustChange(deps.db.sql, key.id);
  deps.ai.wakeWorker();
  return revoked!;
}
