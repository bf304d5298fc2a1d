/**
 * Opens the database: a real PostgreSQL server when a URL is given, otherwise an embedded PGlite
 * that postgres.js speaks to in process (in-process-socket.ts), so that postgres.js is the one
 * driver and there is one SQL path.
 */
import postgres, { type Sql } from "postgres";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { ConfigError } from "../config.ts";
import { connectFailureMessage } from "./connection-errors.ts";
import { guardDatabaseDriver } from "./driver-guard.ts";
import { GENERIC_PLANS_SETTING } from "./advisory-lock.ts";
import { InProcessSocket } from "./in-process-socket.ts";

export type DatabaseKind = "pglite" | "postgres";

/** An open database and how to close it. */
export interface Database {
  sql: Sql;
  kind: DatabaseKind;
  /** Connections in the pool: 1 for the embedded database, a single session. */
  poolSize: number;
  /**
   * The embedded database only: an uncompressed tar of its data directory, taken while it runs
   * (see snapshotEmbedded). Absent on a PostgreSQL server, which is backed up with pg_dump.
   */
  snapshot?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL connection URL; when absent, PGlite is used. */
  databaseUrl?: string;
  /** Directory of the embedded database (created when missing). */
  dataDir: string;
  /** Connections in the pool on a real server. */
  maxConnections?: number;
}

const DRIVER_OPTIONS = {
  onnotice: () => {},
  // No JIT compilation: our statements read few rows by index, but arrays of ids and correlated
  // conditions are estimated past PostgreSQL's JIT thresholds, and compiling then took longer
  // than running (text search scoring 5,000 events: 83 ms of JIT for a 60 ms statement).
  connection: { application_name: "tech-events", jit: "off" },
  // While the server restarts, a connection attempt fails at once (refused) or hangs on an
  // unreachable host: bound the wait, so that a request gets its 503 in seconds.
  connect_timeout: 5,
  // A query that finds its connection closed waits this long before the connection is tried
  // again. postgres.js's default grows with the failures of the whole pool to 10-20 s, so after a
  // restart requests hung that long although the server was back: cap it at a second.
  backoff: (failures: number) => (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** failures, 1),
};

/** Opens the database named by the options. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  await guardDatabaseDriver();
  if (options.databaseUrl) {
    const poolSize = options.maxConnections ?? 10;
    const sql = postgres(options.databaseUrl, { ...DRIVER_OPTIONS, max: poolSize });
    try {
      await sql`SELECT 1`;
    } catch (err) {
      await sql.end({ timeout: 0 });
      throw new ConfigError(connectFailureMessage(err, options.databaseUrl));
    }
    return {
      sql,
      kind: "postgres",
      poolSize,
      close: async () => {
        await sql.end({ timeout: 5 });
      },
    };
  }
  return await openEmbedded(options.dataDir);
}

async function openEmbedded(dataDir: string): Promise<Database> {
  try {
    await Deno.mkdir(dataDir, { recursive: true });
  } catch (err) {
    throw new ConfigError(
      `Cannot start: cannot create the data directory ${dataDir} (${(err as Error).message}): ` +
        "set DATA_DIR to a directory this user may write",
    );
  }
  const lock = await lockDataDir(dataDir);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(dataDir, { extensions: { vector } });
  } catch (err) {
    lock.close();
    throw err;
  }
  // PGlite is a single session: one connection keeps transactions from interleaving.
  const sql = postgres({
    ...DRIVER_OPTIONS,
    user: "postgres",
    database: "postgres",
    max: 1,
    prepare: true,
    // Documented (the driver's README, "Custom socket") but missing from its types.
    ...{ socket: () => new InProcessSocket(pglite) },
  });
  // Its locked work (detection, matching) runs on generic plans (advisory-lock.ts).
  await sql`SELECT set_config(${GENERIC_PLANS_SETTING}, 'on', false)`;
  return {
    sql,
    kind: "pglite",
    poolSize: 1,
    snapshot: () => snapshotEmbedded(sql, pglite),
    close: async () => {
      await sql.end({ timeout: 5 });
      await pglite.close();
      lock.close();
    },
  };
}

// How long a start waits for another process to let go of the data directory.
const LOCK_WAIT_MS = 2_000;

/**
 * Holds the data directory for this process: PGlite takes no lock of its own, and two processes
 * writing one directory corrupt it. An exclusive lock on a file in it, which the system lets go of
 * when the process ends however it ends, so a killed server leaves nothing to clean up.
 */
async function lockDataDir(dataDir: string): Promise<Deno.FsFile> {
  const file = await Deno.open(`${dataDir}/server.lock`, { create: true, write: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const held = await Promise.race([
    file.lock(true).then(() => true),
    new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), LOCK_WAIT_MS)),
  ]);
  clearTimeout(timer);
  if (!held) {
    file.close();
    throw new ConfigError(
      `Cannot start: the data directory ${dataDir} is in use by another process (another server): ` +
        "the embedded database takes one process at a time. Stop that process, or set " +
        "DATA_DIR to another directory, or set DATABASE_URL to share a PostgreSQL server",
    );
  }
  return file;
}

/**
 * A copy of the embedded data directory that restores to a consistent database. PGlite builds the
 * tar synchronously under its query lock, between two statements, so the files are exactly what a
 * crash at that instant would leave: committed transactions are in the WAL, and one caught open is
 * rolled back by recovery when the copy is opened. The checkpoint first keeps that WAL short.
 */
async function snapshotEmbedded(sql: Sql, pglite: PGlite): Promise<Blob> {
  await sql`CHECKPOINT`;
  return await pglite.dumpDataDir("none");
}
