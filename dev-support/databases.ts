/**
 * Fresh, migrated databases for tests: every database test runs on embedded PGlite and, when
 * TEST_DATABASE_URL names a PostgreSQL server, on that server too. Each test gets its own
 * database cloned from a migrated template, so tests never see each other's rows.
 */
import postgres from "postgres";
import { type Database, type DatabaseKind, openDatabase } from "../server/db/connect.ts";
import { migrate, readMigrations } from "../server/db/migrate.ts";

/** Where a fresh test database lives: a PGlite directory or a PostgreSQL URL. */
export interface DatabaseLocation {
  kind: DatabaseKind;
  dataDir: string;
  databaseUrl?: string;
  /** Deletes the database. */
  drop(): Promise<void>;
}

/** The kinds of database the suite runs on here. */
export function testBackends(): DatabaseKind[] {
  return Deno.env.get("TEST_DATABASE_URL") ? ["pglite", "postgres"] : ["pglite"];
}

const CACHE_DIR = new URL("../.cache/", import.meta.url).pathname;

async function migrationsHash(): Promise<string> {
  const text = (await readMigrations()).map((m) => `${m.name}\n${m.sql}`).join("\n");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest).slice(0, 6), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** Whether a file or directory is there. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

let pgliteTemplate: Promise<string> | undefined;

/** A migrated PGlite directory, made once per migrations version (initdb takes seconds). */
function pgliteTemplateDir(): Promise<string> {
  pgliteTemplate ??= (async () => {
    const dir = `${CACHE_DIR}pglite-template-${await migrationsHash()}`;
    if (await exists(dir)) return dir;
    await Deno.mkdir(CACHE_DIR, { recursive: true });
    const building = `${dir}.${crypto.randomUUID()}`;
    const db = await openDatabase({ dataDir: building });
    await migrate(db.sql);
    await db.close();
    try {
      await Deno.rename(building, dir);
    } catch {
      // Another test process finished first; its template is as good.
      await Deno.remove(building, { recursive: true });
    }
    return dir;
  })();
  return pgliteTemplate;
}

let postgresTemplate: Promise<string> | undefined;

/** The PostgreSQL server TEST_DATABASE_URL names; an error when it is unset. */
export function serverUrl(): string {
  const url = Deno.env.get("TEST_DATABASE_URL");
  if (!url) throw new Error("Cannot use PostgreSQL: TEST_DATABASE_URL is not set");
  return url;
}

/** The server URL `url` with the database `name`. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A migrated template database on the server, made once per migrations version. */
function postgresTemplateName(): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `events_template_${await migrationsHash()}`;
    const admin = postgres(serverUrl(), { max: 1, onnotice: () => {} });
    try {
      const [{ found }] = await admin<{ found: boolean }[]>`
        SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = ${name}) AS found`;
      if (!found) {
        const building = `${name}_${crypto.randomUUID().slice(0, 8)}`;
        await admin.unsafe(`CREATE DATABASE "${building}"`);
        const db = postgres(withDatabase(serverUrl(), building), { max: 1, onnotice: () => {} });
        await migrate(db);
        await db.end();
        try {
          await admin.unsafe(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
        } catch {
          await admin.unsafe(`DROP DATABASE IF EXISTS "${building}"`);
        }
      }
    } finally {
      await admin.end();
    }
    return name;
  })();
  return postgresTemplate;
}

let scratch: Promise<string | undefined> | undefined;

/**
 * The memory-backed /dev/shm, when this machine has one. An embedded test database is a 40 MB
 * copy of the template that PGlite then writes to: on a busy disk that takes seconds, in memory a
 * tenth of a second.
 */
function memoryDir(): Promise<string | undefined> {
  scratch ??= (async () => {
    try {
      const probe = await Deno.makeTempDir({ dir: "/dev/shm", prefix: "events-probe-" });
      await Deno.remove(probe);
      return "/dev/shm";
    } catch {
      return undefined;
    }
  })();
  return scratch;
}

/** Options of createTestDatabase. */
export interface TestDatabaseOptions {
  /**
   * Only this test process opens the database (as openTestDatabase and the test servers do), so an
   * embedded one may live in /dev/shm; Deno lets only --allow-all processes touch /dev, and a
   * child such as `npm start` runs with fewer permissions.
   */
  thisProcessOnly?: boolean;
}

/** Copies the files in directory `from` into `to` (made if missing), as `cp -r` does. */
export async function copyDirectory(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  const copy = await new Deno.Command("cp", { args: ["-r", `${from}/.`, to] }).output();
  if (!copy.success) {
    throw new Error(`Cannot copy ${from} to ${to}: ${new TextDecoder().decode(copy.stderr)}`);
  }
}

/** Makes a fresh migrated database of the given kind; the caller opens it (or a server does). */
export async function createTestDatabase(
  kind: DatabaseKind,
  options: TestDatabaseOptions = {},
): Promise<DatabaseLocation> {
  if (kind === "pglite") {
    const template = await pgliteTemplateDir();
    const dir = options.thisProcessOnly ? await memoryDir() : undefined;
    const dataDir = await Deno.makeTempDir({ dir, prefix: "events-test-" });
    try {
      await copyDirectory(template, dataDir);
    } catch (err) {
      await Deno.remove(dataDir, { recursive: true });
      throw err;
    }
    return {
      kind,
      dataDir,
      drop: () => Deno.remove(dataDir, { recursive: true }),
    };
  }
  const template = await postgresTemplateName();
  const name = `events_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(serverUrl(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  // A test database need not survive a crash: commits stop waiting for the disk.
  await admin.unsafe(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
  await admin.end();
  return {
    kind,
    dataDir: "",
    databaseUrl: withDatabase(serverUrl(), name),
    drop: async () => {
      const a = postgres(serverUrl(), { max: 1, onnotice: () => {} });
      await a.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await a.end();
    },
  };
}

/** A fresh, open, migrated database; closing it also deletes it. */
export async function openTestDatabase(kind: DatabaseKind): Promise<Database> {
  const location = await createTestDatabase(kind, { thisProcessOnly: true });
  const db = await openDatabase(location);
  return {
    ...db,
    close: async () => {
      await db.close();
      await location.drop();
    },
  };
}
