/** Turns a bearer key into the principal it stands for, or says why it cannot. */
import type { Sql } from "postgres";
import { displayPrefix, isWellFormedApiKey } from "../../shared/api-key-format.ts";
import { findApiKeyByDigest } from "../db/api-keys.ts";
import type { Principal } from "../app-env.ts";
import { apiKeyDigest, digestsEqual } from "./api-key-digest.ts";

export type Verification =
  | { ok: true; principal: Principal }
  | { ok: false; reason: string };

/** The operator key's identity: it has no row, only the admin scope. */
export const OPERATOR_PREFIX = "ADMIN_API_KEY";

/** Checks a presented key: shape and checksum first, then the operator key, then the database. */
export async function verifyApiKey(
  sql: Sql,
  key: string,
  operatorKeyDigest: Uint8Array | null,
): Promise<Verification> {
  if (!isWellFormedApiKey(key)) {
    return { ok: false, reason: "The API key is malformed: check that it was copied whole." };
  }
  const digest = await apiKeyDigest(key);
  if (operatorKeyDigest && digestsEqual(digest, operatorKeyDigest)) {
    return {
      ok: true,
      principal: {
        keyId: null,
        contributorId: null,
        prefix: OPERATOR_PREFIX,
        scopes: ["admin"],
        rateLimitPerMinute: 600,
        hasFirstBatch: true,
        trusted: false,
        selfService: false,
      },
    };
  }
  const record = await findApiKeyByDigest(sql, digest);
  if (!record) return { ok: false, reason: "The API key is not known to this service." };
  if (record.revoked_at) {
    return { ok: false, reason: `The API key ${displayPrefix(key)} has been revoked.` };
  }
  if (record.expires_at && record.expires_at.getTime() <= Date.now()) {
    return {
      ok: false,
      reason: `The API key ${displayPrefix(key)} expired at ${record.expires_at.toISOString()}: ` +
        "generate a new key in the dashboard (/dashboard) or ask an operator for one.",
    };
  }
  return {
    ok: true,
    principal: {
      keyId: record.id,
      contributorId: record.contributor_id,
      prefix: record.prefix,
      scopes: record.scopes,
      rateLimitPerMinute: record.rate_limit_per_minute,
      hasFirstBatch: record.first_batch_at !== null,
      trusted: record.trusted,
      selfService: record.self_service,
    },
  };
}
