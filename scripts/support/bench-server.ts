/**
 * The pieces benchmarks of the HTTP server share: a seeded database, and the server as deployed.
 */
import type { Sql } from "postgres";
import { EventBatch } from "../../shared/event-schema.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { openDatabase } from "../../server/db/connect.ts";
import { migrate } from "../../server/db/migrate.ts";
import { createTestDatabase } from "../../dev-support/databases.ts";
import { realisticEvents } from "./realistic-events.ts";

/** Stores `size` realistic events under an untrusted key (no embedding work meanwhile). */
export async function seedRealisticEvents(sql: Sql, size: number): Promise<number> {
  const started = performance.now();
  const writer = await insertWriterKey(sql, "bench");
  for (let first = 0; first < size; first += 500) {
    const batch = realisticEvents(first, Math.min(500, size - first))
      .map((e) => EventBatch.parse({ events: [e] }).events[0]);
    await upsertEvents(sql, writer, batch);
  }
  return performance.now() - started;
}

const START_TIMEOUT_MS = 120_000;

/**
 * The server in its own process, as deployed, with no embedding work in the way (these
 * benchmarks time listings and text searches); resolves once it listens. `env` adds settings or
 * overrides these (such as ADMIN_API_KEY, or the public rate limit back to its default).
 */
export async function startServerProcess(
  o: {
    dataDir: string;
    databaseUrl?: string;
    env?: Record<string, string>;
    /** Called after each full collection (V8's --trace-gc) with the heap in use and reserved. */
    onFullGc?: (liveMiB: number, reservedMiB: number) => void;
  },
) {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...(o.onFullGc ? ["--v8-flags=--trace-gc"] : []),
      new URL("../../server/main.ts", import.meta.url).pathname,
    ],
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : { DATA_DIR: o.dataDir }),
      LOG_REQUESTS: "false",
      PUBLIC_RATE_LIMIT_PER_MINUTE: "100000000",
      EMBEDDINGS_PROVIDER: "openai",
      OPENAI_API_KEY: "sk-bench-unused",
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      EMBEDDINGS_WORKER: "external",
      ...o.env,
    },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let output = "";
  // A server that neither listens nor exits would hold the benchmark forever.
  const stuck = setTimeout(() => child.kill("SIGKILL"), START_TIMEOUT_MS);
  try {
    while (!output.includes("Listening on")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`The server stopped before listening: ${output}`);
      output += value;
    }
  } finally {
    clearTimeout(stuck);
  }
  if (o.onFullGc) followFullGcs(reader, o.onFullGc);
  else {
    reader.releaseLock();
    child.stdout.cancel().catch(() => {});
  }
  return {
    url: `http://127.0.0.1:${port}`,
    /** The server's process id, to read its memory and CPU time from /proc. */
    pid: child.pid,
    stop: async () => {
      try {
        child.kill("SIGTERM");
      } catch {
        // It has exited already.
      }
      await child.status;
    },
  };
}

/**
 * Reads the server's output to its end, passing on the heap in use and reserved after each full
 * collection: "... Mark-Compact 251.3 (290.5) -> 120.1 (287.0) MB, ..." (in use before, reserved,
 * in use after, reserved) as V8's --trace-gc prints it.
 */
async function followFullGcs(
  reader: ReadableStreamDefaultReader<string>,
  onFullGc: (liveMiB: number, reservedMiB: number) => void,
): Promise<void> {
  let pending = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const lines = (pending + value).split("\n");
      // A line without its end past 10,000 characters is not V8's: dropped, not kept growing.
      pending = (lines.pop() ?? "").slice(0, 10_000);
      for (const line of lines) {
        const full = /Mark-Compact[^\d]*[\d.]+ \([\d.]+\) -> ([\d.]+) \(([\d.]+)\)/.exec(line);
        if (full) onFullGc(Number(full[1]), Number(full[2]));
      }
    }
  } catch {
    // The server stopped.
  }
}

/** A benchmark's database, seeded and analysed, before the server opens it. */
export interface BenchDatabase {
  /** "PostgreSQL" or "PGlite", for the figures' heading. */
  label: string;
  dataDir: string;
  databaseUrl?: string;
  /** How long seeding took. */
  loadMs: number;
  /** The id of one stored event, for the single-event requests. */
  eventId: string;
  /** Deletes the database. */
  drop(): Promise<void>;
}

/**
 * A fresh database (PostgreSQL when TEST_DATABASE_URL is set, else PGlite in a temporary
 * directory), migrated, with `size` realistic events (and what `alsoSeed` adds) and the planner's
 * statistics.
 */
export async function seededBenchDatabase(
  size: number,
  prefix: string,
  options: { alsoSeed?: (sql: Sql) => Promise<void> } = {},
): Promise<BenchDatabase> {
  const location = Deno.env.get("TEST_DATABASE_URL") ? await createTestDatabase("postgres") : null;
  const dataDir = location ? "" : await Deno.makeTempDir({ prefix });
  const drop = async () => {
    if (location) await location.drop();
    else await Deno.remove(dataDir, { recursive: true });
  };
  try {
    const db = await openDatabase({ dataDir, databaseUrl: location?.databaseUrl });
    try {
      await migrate(db.sql);
      const loadMs = await seedRealisticEvents(db.sql, size);
      await options.alsoSeed?.(db.sql);
      // PGlite runs no autovacuum: give the planner the statistics a server would have by now.
      await db.sql`ANALYZE`;
      const [{ id: eventId }] = await db.sql`SELECT id FROM events ORDER BY id LIMIT 1`;
      return {
        label: location ? "PostgreSQL" : "PGlite",
        dataDir,
        databaseUrl: location?.databaseUrl,
        loadMs,
        eventId,
        drop,
      };
    } finally {
      await db.close();
    }
  } catch (err) {
    await drop();
    throw err;
  }
}
