/**
 * Operator and contributor decisions on a key, each with its rule and its side effects in one
 * place, for the operator API, the review queue and the dashboard alike. Operators' decisions are
 * recorded in the audit log (server/db/operator-decisions.ts) in the same transaction.
 */
import type { Sql } from "postgres";
import type { AppDeps } from "../app-env.ts";
import { type ApiKeyRecord, countEventsOfKey, revokeApiKey } from "../db/api-keys.ts";
import { setKeyRateLimit, setKeyTrust } from "../db/key-trust.ts";
import { recordOperatorDecision } from "../db/operator-decisions.ts";
import { AppError } from "../errors.ts";
import { regroupAfterTrustChange } from "../duplicates/operator-decisions.ts";

type Deps = Pick<AppDeps, "db" | "ai" | "alerts">;

/** Runs `change` and records the decision with its count of the key's events, atomically. */
async function decided(
  deps: Deps,
  decision: { key: ApiKeyRecord; action: "trust" | "untrust" | "revoke"; decidedBy: string },
  change: (tx: Sql) => Promise<unknown>,
): Promise<void> {
  await deps.db.sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    await change(tx);
    await recordOperatorDecision(tx, {
      decidedBy: decision.decidedBy,
      action: decision.action,
      keyId: decision.key.id,
      details: { key_events: await countEventsOfKey(tx, decision.key.id) },
    });
  });
}

/** Trusts a key: its events enter AI search. A revoked key cannot be trusted (409). */
export async function trustKey(deps: Deps, key: ApiKeyRecord, decidedBy: string): Promise<void> {
  if (key.revoked_at !== null) {
    throw new AppError(
      "conflict",
      `Cannot trust the key ${key.prefix}: it was revoked at ${key.revoked_at.toISOString()}.`,
    );
  }
  await decided(
    deps,
    { key, action: "trust", decidedBy },
    (tx) => setKeyTrust(tx, key.id, true, decidedBy),
  );
  await regroupAfterTrustChange(deps.db.sql, key.id);
  // After regrouping, so that a second listing of an event already told of tells nothing.
  await deps.alerts.keyTrusted(key.id);
  deps.ai.wakeWorker();
}

/** Withdraws trust (or decides against it): the key's events leave AI search at once. */
export async function untrustKey(deps: Deps, key: ApiKeyRecord, decidedBy: string): Promise<void> {
  await decided(
    deps,
    { key, action: "untrust", decidedBy },
    (tx) => setKeyTrust(tx, key.id, false, decidedBy),
  );
  await regroupAfterTrustChange(deps.db.sql, key.id);
  deps.ai.wakeWorker();
}

/**
 * Revokes a key: 401 from its next request on; its events stay listed, out of AI search.
 * `operator` names the operator deciding, or is null when the contributor revokes its own key
 * (not an operator decision, so not in the audit log).
 */
export async function revokeKey(
  deps: Deps,
  key: ApiKeyRecord,
  operator: string | null,
): Promise<ApiKeyRecord> {
  let revoked: ApiKeyRecord | null = null;
  if (operator === null) revoked = await revokeApiKey(deps.db.sql, key.id);
  else {
    await decided(deps, { key, action: "revoke", decidedBy: operator }, async (tx) => {
      revoked = await revokeApiKey(tx, key.id);
    });
  }
  await regroupAfterTrustChange(deps.db.sql, key.id);
  deps.ai.wakeWorker();
  return revoked!;
}

/** An operator changes a key's rate limit, from its next request on. */
export async function changeKeyRate(
  deps: Deps,
  change: { key: ApiKeyRecord; perMinute: number; decidedBy: string },
): Promise<void> {
  await deps.db.sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    await setKeyRateLimit(tx, change.key.id, change.perMinute);
    await recordOperatorDecision(tx, {
      decidedBy: change.decidedBy,
      action: "rate_change",
      keyId: change.key.id,
      details: { from: change.key.rate_limit_per_minute, to: change.perMinute },
    });
  });
}
