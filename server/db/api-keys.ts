/** API keys and the contributors they belong to. */
import type { Sql } from "postgres";
import { isUuid } from "../uuid.ts";
import type { KEY_STATUSES } from "../../shared/key-schemas.ts";

export type KeyStatus = typeof KEY_STATUSES[number];

/** A key as operators see it; never holds the key itself. */
export interface ApiKeyRecord {
  id: string;
  prefix: string;
  name: string;
  contributor: string;
  contributor_id: string;
  scopes: string[];
  status: KeyStatus;
  trusted: boolean;
  rate_limit_per_minute: number;
  created_by: string;
  created_at: Date;
  first_batch_at: Date | null;
  reviewed_at: Date | null;
  reviewed_by: string | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  /** When the key stops working; null: never. */
  expires_at: Date | null;
  /** Made by its contributor on the dashboard, not by an operator. */
  self_service: boolean;
}

export interface NewApiKey {
  contributor: string;
  name: string;
  scopes: string[];
  rateLimitPerMinute: number;
  digest: Uint8Array;
  prefix: string;
  createdBy: string;
  /** When the key stops working; absent or null: never. */
  expiresAt?: Date | null;
  /** Made by its contributor on the dashboard (absent: by an operator). */
  selfService?: boolean;
}

function keyColumns(sql: Sql) {
  return sql`
    k.id, k.prefix, k.name, c.name AS contributor, k.contributor_id, k.scopes,
    CASE
      WHEN k.revoked_at IS NOT NULL THEN 'revoked'
      WHEN k.trusted THEN 'trusted'
      WHEN k.first_batch_at IS NOT NULL AND k.reviewed_at IS NULL THEN 'pending'
      ELSE 'untrusted'
    END AS status,
    k.trusted, k.rate_limit_per_minute, k.created_by, k.created_at, k.first_batch_at,
    k.reviewed_at, k.reviewed_by, k.revoked_at, k.last_used_at, k.expires_at, k.self_service`;
}

/** Stores a new key (and its contributor, the first time the name is seen). */
export async function insertApiKey(sql: Sql, key: NewApiKey): Promise<ApiKeyRecord> {
  const [row] = await sql<ApiKeyRecord[]>`
    WITH contributor AS (
      INSERT INTO contributors (name) VALUES (${key.contributor})
      ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
      RETURNING id, name
    ), inserted AS (
      INSERT INTO api_keys (contributor_id, name, digest, prefix, scopes, rate_limit_per_minute,
                            created_by, expires_at, self_service)
      SELECT contributor.id, ${key.name}, ${key.digest}, ${key.prefix}, ${key.scopes}::text[],
             ${key.rateLimitPerMinute}, ${key.createdBy}, ${key.expiresAt ?? null},
             ${key.selfService ?? false}
      FROM contributor
      RETURNING *
    )
    -- Rows written by this statement's CTEs are not visible in the tables yet: join the CTE.
    SELECT ${keyColumns(sql)} FROM inserted k JOIN contributor c ON c.id = k.contributor_id`;
  return row;
}

/**
 * The key whose SHA-256 digest is `digest`, revoked or not. Also notes when the key was last
 * used, at most once a minute so that busy keys do not contend for their row.
 */
export async function findApiKeyByDigest(
  sql: Sql,
  digest: Uint8Array,
): Promise<ApiKeyRecord | null> {
  const [row] = await sql<ApiKeyRecord[]>`
    WITH touched AS (
      UPDATE api_keys SET last_used_at = now()
      WHERE digest = ${digest} AND revoked_at IS NULL
        AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
      RETURNING id
    )
    SELECT ${keyColumns(sql)} FROM api_keys k JOIN contributors c ON c.id = k.contributor_id
    WHERE k.digest = ${digest}`;
  return row ?? null;
}

/** The key named by its id or its display prefix. */
export async function findApiKeyByRef(sql: Sql, ref: string): Promise<ApiKeyRecord | null> {
  const [row] = isUuid(ref)
    ? await sql<ApiKeyRecord[]>`
        SELECT ${keyColumns(sql)} FROM api_keys k JOIN contributors c ON c.id = k.contributor_id
        WHERE k.id = ${ref}`
    : await sql<ApiKeyRecord[]>`
        SELECT ${keyColumns(sql)} FROM api_keys k JOIN contributors c ON c.id = k.contributor_id
        WHERE k.prefix = ${ref}`;
  return row ?? null;
}

/** All keys, newest first; optionally only those in one status, or of one contributor. */
export async function listApiKeys(
  sql: Sql,
  filter: { status?: KeyStatus; contributorId?: string } = {},
): Promise<ApiKeyRecord[]> {
  const status = filter.status ?? null;
  const contributorId = filter.contributorId ?? null;
  return await sql<ApiKeyRecord[]>`
    SELECT * FROM (
      SELECT ${keyColumns(sql)} FROM api_keys k JOIN contributors c ON c.id = k.contributor_id
      WHERE ${contributorId}::uuid IS NULL OR k.contributor_id = ${contributorId}::uuid
    ) keys
    WHERE ${status}::text IS NULL OR status = ${status}
    ORDER BY created_at DESC, id`;
}

/** Revokes a key; revoking twice keeps the first time. Returns the key, or null if unknown. */
export async function revokeApiKey(sql: Sql, id: string): Promise<ApiKeyRecord | null> {
  const [row] = await sql<ApiKeyRecord[]>`
    WITH updated AS (
      UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = ${id} RETURNING *
    )
    SELECT ${keyColumns(sql)} FROM updated k JOIN contributors c ON c.id = k.contributor_id`;
  return row ?? null;
}

/**
 * Keeps a key's first accepted batch for the operator's review; later batches change nothing.
 * Runs inside the batch's transaction.
 */
export async function recordFirstBatch(
  sql: Sql,
  keyId: string,
  eventIds: string[],
): Promise<void> {
  await sql`
    UPDATE api_keys SET first_batch_at = now(), first_batch_event_ids = ${eventIds}::uuid[]
    WHERE id = ${keyId} AND first_batch_at IS NULL`;
}

/** How many events the key wrote last (what its trust decides for). */
export async function countEventsOfKey(sql: Sql, keyId: string): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    SELECT count(*)::int AS count FROM events WHERE last_key_id = ${keyId}::uuid`;
  return row.count;
}
