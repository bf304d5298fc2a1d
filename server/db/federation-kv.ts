/**
 * Fedify's key-value store as rows of `federation_kv` (server/federation/kv-store.ts): a key is
 * the JSON text of its parts, so that a prefix of parts is a prefix of text (list).
 */
import type { Sql } from "postgres";

/** A stored value, or undefined when absent or expired. */
export async function readKv(sql: Sql, key: string): Promise<unknown> {
  const rows = await sql<{ value: unknown }[]>`
    SELECT value FROM federation_kv
    WHERE key = ${key} AND (expires_at IS NULL OR expires_at > now())`;
  return rows.length === 0 ? undefined : rows[0].value;
}

/** Stores `value` under `key`, for `ttlMs` when given. */
export async function writeKv(
  sql: Sql,
  entry: { key: string; value: unknown; ttlMs?: number },
): Promise<void> {
  const ttl = entry.ttlMs ?? null;
  await sql`
    INSERT INTO federation_kv (key, value, expires_at)
    VALUES (${entry.key}, ${sql.json(entry.value as never)},
            CASE WHEN ${ttl}::float8 IS NULL THEN NULL
                 ELSE now() + ${ttl}::float8 * interval '1 millisecond' END)
    ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`;
}

/** Removes `key`. */
export async function deleteKv(sql: Sql, key: string): Promise<void> {
  await sql`DELETE FROM federation_kv WHERE key = ${key}`;
}

/**
 * Sets `key` to `value` only if it now holds `expected` (undefined: absent); true when it did.
 * The row lock of the update (or the insert's conflict) makes the check and the write one step.
 */
export async function swapKv(
  sql: Sql,
  entry: { key: string; expected: unknown; value: unknown; ttlMs?: number },
): Promise<boolean> {
  const ttl = entry.ttlMs ?? null;
  const expires = sql`CASE WHEN ${ttl}::float8 IS NULL THEN NULL
                      ELSE now() + ${ttl}::float8 * interval '1 millisecond' END`;
  if (entry.expected === undefined) {
    // Absent also means expired: an expired row is replaced.
    const rows = await sql`
      INSERT INTO federation_kv (key, value, expires_at)
      VALUES (${entry.key}, ${sql.json(entry.value as never)}, ${expires})
      ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
        WHERE federation_kv.expires_at IS NOT NULL AND federation_kv.expires_at <= now()
      RETURNING 1`;
    return rows.length === 1;
  }
  const rows = await sql`
    UPDATE federation_kv SET value = ${sql.json(entry.value as never)}, expires_at = ${expires}
    WHERE key = ${entry.key} AND value = ${sql.json(entry.expected as never)}
      AND (expires_at IS NULL OR expires_at > now())
    RETURNING 1`;
  return rows.length === 1;
}

/**
 * Entries whose key text starts with `prefix`, after the key `after`, at most `limit`, in key
 * order.
 */
export async function listKv(
  sql: Sql,
  options: { prefix: string; after?: string; limit: number },
): Promise<{ key: string; value: unknown }[]> {
  return await sql<{ key: string; value: unknown }[]>`
    SELECT key, value FROM federation_kv
    WHERE left(key, length(${options.prefix})) = ${options.prefix}
      AND key COLLATE "C" > ${options.after ?? ""}
      AND (expires_at IS NULL OR expires_at > now())
    ORDER BY key COLLATE "C" LIMIT ${options.limit}`;
}

/** Removes expired entries; returns how many. */
export async function pruneKv(sql: Sql): Promise<number> {
  const rows = await sql`DELETE FROM federation_kv WHERE expires_at <= now() RETURNING 1`;
  return rows.length;
}
