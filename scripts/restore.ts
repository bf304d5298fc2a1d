/**
 * `npm run restore -- <file> [--data-dir <dir>]`: restores a backup made by `npm run backup` into
 * an empty data directory (default DATA_DIR, else ./data); refuses a directory that holds anything.
 */
import { restoreEmbeddedBackup, RestoreError } from "../server/db/restore-embedded.ts";

const USAGE = "Usage: npm run restore -- <backup file> [--data-dir <dir>]";

function parseArgs(args: string[]): { file: string; dataDir: string } {
  const rest = args.filter((a) => a !== "--");
  let dataDir = Deno.env.get("DATA_DIR") || "./data";
  const files: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--data-dir" && rest[i + 1]) dataDir = rest[++i];
    else if (rest[i].startsWith("-")) throw new RestoreError(USAGE);
    else files.push(rest[i]);
  }
  if (files.length !== 1) throw new RestoreError(USAGE);
  return { file: files[0], dataDir };
}

/** "1 key", "3 keys". */
function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

try {
  const summary = await restoreEmbeddedBackup(parseArgs(Deno.args));
  console.log(
    `Restored ${counted(summary.events, "event")} and ${counted(summary.keys, "key")} into ` +
      `${summary.dataDir} ` +
      `(schema version ${summary.schemaVersion}). Start the server with ` +
      `DATA_DIR=${summary.dataDir}.`,
  );
} catch (err) {
  console.error(err instanceof RestoreError ? err.message : err);
  Deno.exit(1);
}
