/**
 * Applies the numbered `.sql` files of `migrations/` in order, once each, recording them in
 * `schema_migrations`. Refuses gaps and duplicate numbers, and never edits an applied migration.
 */
import type { Sql } from "postgres";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const MIGRATIONS_DIR = new URL("./migrations/", import.meta.url);
// Any fixed number: it serialises migration runs of several processes on one database.
const MIGRATION_LOCK_ID = 4_711_001;

/** Reads the migration files, checking that they are numbered 1, 2, 3, ... without gaps. */
export async function readMigrations(dir: URL = MIGRATIONS_DIR): Promise<Migration[]> {
  const migrations: Migration[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".sql")) continue;
    const match = /^(\d+)_[\w-]+\.sql$/.exec(entry.name);
    if (!match) {
      throw new Error(`Cannot read migration ${entry.name}: name it NNN_description.sql`);
    }
    const sql = await Deno.readTextFile(new URL(entry.name, dir));
    migrations.push({ version: Number(match[1]), name: entry.name, sql });
  }
  migrations.sort((a, b) => a.version - b.version);
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new Error(`Cannot apply migrations: expected number ${i + 1}, found ${m.name}`);
    }
  });
  return migrations;
}

/** Brings the database up to date; returns the names of the migrations it applied. */
export async function migrate(sql: Sql, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? await readMigrations();
  return await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`;
    await tx`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`;
    const rows = await tx<{ version: number }[]>`SELECT version FROM schema_migrations`;
    const applied = new Set(rows.map((r) => r.version));
    const done: string[] = [];
    for (const m of all) {
      if (applied.has(m.version)) continue;
      await tx.unsafe(m.sql);
      await tx`INSERT INTO schema_migrations (version, name) VALUES (${m.version}, ${m.name})`;
      done.push(m.name);
    }
    return done;
  });
}

/** Names of migration files not yet applied (empty when the schema is current). */
export async function pendingMigrations(sql: Sql): Promise<string[]> {
  const all = await readMigrations();
  const [{ exists }] = await sql<{ exists: boolean }[]>`
    SELECT to_regclass('schema_migrations') IS NOT NULL AS exists`;
  if (!exists) return all.map((m) => m.name);
  const rows = await sql<{ version: number }[]>`SELECT version FROM schema_migrations`;
  const applied = new Set(rows.map((r) => r.version));
  return all.filter((m) => !applied.has(m.version)).map((m) => m.name);
}
