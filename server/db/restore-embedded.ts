/**
 * Restores a backup of the embedded database (GET /api/v1/admin/backup, `npm run backup`) into an
 * empty data directory. The copy is unpacked beside the target and moved into place only once it
 * has opened cleanly, so a failed restore never leaves a half-written data directory.
 */
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { openDatabase } from "./connect.ts";

/** Thrown when a restore cannot proceed; the message says why and what to do. */
export class RestoreError extends Error {
  override name = "RestoreError";
}

/** What a restored data directory holds. */
export interface RestoreSummary {
  dataDir: string;
  events: number;
  keys: number;
  /** The highest migration applied in the backup. */
  schemaVersion: number;
}

async function entriesOf(path: string): Promise<number | null> {
  try {
    let count = 0;
    for await (const _ of Deno.readDir(path)) count++;
    return count;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    if (err instanceof Deno.errors.NotADirectory) return 1;
    throw err;
  }
}

async function readTar(file: string): Promise<Blob> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await Deno.readFile(file);
  } catch (err) {
    throw new RestoreError(`Cannot read the backup ${file}: ${(err as Error).message}`);
  }
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    throw new RestoreError(
      `Cannot restore ${file}: it is not a gzip file; use a file made by \`npm run backup\`.`,
    );
  }
  try {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Blob([await new Response(stream).arrayBuffer()], { type: "application/x-tar" });
  } catch (err) {
    throw new RestoreError(
      `Cannot restore ${file}: it is damaged or cut short (${(err as Error).message}); ` +
        "take a new backup.",
    );
  }
}

async function unpack(tar: Blob, staging: string, file: string): Promise<void> {
  try {
    const pglite = await PGlite.create(staging, { loadDataDir: tar, extensions: { vector } });
    await pglite.close();
  } catch (err) {
    throw new RestoreError(
      `Cannot restore ${file}: it does not open as a database (${(err as Error).message}); ` +
        "use a file made by `npm run backup` with this version of the service.",
    );
  }
}

async function summarise(staging: string): Promise<Omit<RestoreSummary, "dataDir">> {
  const db = await openDatabase({ dataDir: staging });
  try {
    const [row] = await db.sql<{ events: number; keys: number; version: number }[]>`
      SELECT (SELECT count(*)::int FROM events) AS events,
             (SELECT count(*)::int FROM api_keys) AS keys,
             (SELECT coalesce(max(version), 0) FROM schema_migrations) AS version`;
    return { events: row.events, keys: row.keys, schemaVersion: row.version };
  } finally {
    await db.close();
  }
}

/** Restores `file` into `dataDir`, which must be missing or empty. */
export async function restoreEmbeddedBackup(
  options: { file: string; dataDir: string },
): Promise<RestoreSummary> {
  const { file, dataDir } = options;
  const entries = await entriesOf(dataDir);
  if (entries !== null && entries > 0) {
    throw new RestoreError(
      `Cannot restore into ${dataDir}: it is not empty. Restore into a new directory ` +
        "(--data-dir) and start the server with DATA_DIR set to it, or move this one away first.",
    );
  }
  const tar = await readTar(file);
  await Deno.mkdir(dirname(dataDir), { recursive: true });
  const staging = join(dirname(dataDir), `.restoring-${crypto.randomUUID()}`);
  try {
    await unpack(tar, staging, file);
    const summary = await summarise(staging);
    if (entries !== null) await Deno.remove(dataDir);
    await Deno.rename(staging, dataDir);
    return { dataDir, ...summary };
  } catch (err) {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    throw err;
  }
}
