/**
 * Fedify's KvStore over our database (server/db/federation-kv.ts), so that PGlite and PostgreSQL
 * both keep Fedify's caches and idempotency records, and several servers share them.
 */
import type { Sql } from "postgres";
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import { deleteKv, listKv, readKv, swapKv, writeKv } from "../db/federation-kv.ts";

const LIST_PAGE = 500;

/** A key's parts as one text: a JSON array, so that parts never run into each other. */
function keyText(key: KvKey): string {
  return JSON.stringify(key);
}

function ttlMs(options?: KvStoreSetOptions): number | undefined {
  return options?.ttl === undefined ? undefined : options.ttl.total({ unit: "millisecond" });
}

/** The KvStore Fedify is given. */
export class DatabaseKvStore implements KvStore {
  readonly #sql: Sql;

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    return await readKv(this.#sql, keyText(key)) as T | undefined;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    await writeKv(this.#sql, { key: keyText(key), value, ttlMs: ttlMs(options) });
  }

  async delete(key: KvKey): Promise<void> {
    await deleteKv(this.#sql, keyText(key));
  }

  async cas(
    key: KvKey,
    expectedValue: unknown,
    newValue: unknown,
    options?: KvStoreSetOptions,
  ): Promise<boolean> {
    return await swapKv(this.#sql, {
      key: keyText(key),
      expected: expectedValue,
      value: newValue,
      ttlMs: ttlMs(options),
    });
  }

  /** The entries whose key begins with the parts of `prefix` (the key itself included). */
  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    // '["a","b"' begins the text of ["a","b"] and of every longer key under it.
    const start = prefix === undefined ? "[" : keyText(prefix).slice(0, -1);
    let after: string | undefined;
    while (true) {
      const rows = await listKv(this.#sql, { prefix: start, after, limit: LIST_PAGE });
      for (const row of rows) {
        const next = row.key[start.length];
        if (prefix !== undefined && next !== "]" && next !== ",") continue;
        yield { key: JSON.parse(row.key) as KvKey, value: row.value };
      }
      if (rows.length < LIST_PAGE) return;
      after = rows[rows.length - 1].key;
    }
  }
}
