/**
 * `npm run backup [-- <file>]`: asks the running server for a backup of its embedded database
 * (GET /api/v1/admin/backup) and writes it to <file>, by default
 * backups/events-backup-<UTC time>.tar.gz. Needs EVENTS_API_URL (default http://localhost:8000)
 * and the operator key in EVENTS_API_KEY or ADMIN_API_KEY. Restore with `npm run restore`.
 */
import { dirname } from "node:path";

const USAGE = "Usage: npm run backup [-- <file>]";

function fail(message: string): never {
  console.error(message);
  Deno.exit(1);
}

/** Reads the whole gzip stream so a truncated or damaged download is never kept as a backup. */
async function checkGzip(path: string): Promise<void> {
  const file = await Deno.open(path);
  const sink = new WritableStream<Uint8Array>();
  await file.readable.pipeThrough(new DecompressionStream("gzip")).pipeTo(sink);
}

async function download(url: string, key: string, target: string | undefined): Promise<string> {
  const res = await fetch(`${url.replace(/\/+$/, "")}/api/v1/admin/backup`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  if (!res.ok || !res.body) {
    const body = await res.json().catch(() => ({}));
    fail(`Cannot back up: the server answered ${res.status}: ${body.message ?? body.error ?? ""}`);
  }
  const offered = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1];
  const path = target ?? `backups/${offered ?? `events-backup-${Date.now()}.tar.gz`}`;
  await Deno.mkdir(dirname(path), { recursive: true });
  const partial = `${path}.partial`;
  try {
    const out = await Deno.open(partial, { write: true, createNew: true });
    await res.body.pipeTo(out.writable);
    await checkGzip(partial);
    await Deno.rename(partial, path);
  } catch (err) {
    await Deno.remove(partial).catch(() => {});
    fail(`Cannot back up: ${(err as Error).message}; nothing was written to ${path}.`);
  }
  return path;
}

async function main(): Promise<void> {
  const args = Deno.args.filter((a) => a !== "--");
  if (args.length > 1 || args.some((a) => a.startsWith("-"))) fail(USAGE);
  const target = args[0];
  if (target) {
    const exists = await Deno.stat(target).then(() => true, () => false);
    if (exists) fail(`Cannot back up to ${target}: the file exists; name a new file.`);
  }
  const url = Deno.env.get("EVENTS_API_URL") || "http://localhost:8000";
  const key = Deno.env.get("EVENTS_API_KEY") || Deno.env.get("ADMIN_API_KEY");
  if (!key) fail("Cannot back up: set ADMIN_API_KEY (or EVENTS_API_KEY) to the operator key.");
  let path: string;
  try {
    path = await download(url, key, target);
  } catch (err) {
    fail(`Cannot back up from ${url}: ${(err as Error).message}. Is the server running?`);
  }
  const { size } = await Deno.stat(path);
  console.log(`Backup written to ${path} (${(size / 1024 / 1024).toFixed(1)} MiB).`);
}

await main();
