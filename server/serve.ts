/** Starts the whole service: database, migrations, HTTP server; and stops it cleanly. */
import type { Config } from "./config.ts";
import type { AppDeps, ChangeSignals } from "./app-env.ts";
import { openDatabase } from "./db/connect.ts";
import { migrate } from "./db/migrate.ts";
import { pruneRateLimitBuckets } from "./db/rate-limit.ts";
import { createApp } from "./app.ts";

/** A running service. */
export interface RunningService {
  url: string;
  deps: AppDeps;
  shutdown(): Promise<void>;
}

const NO_SIGNALS: ChangeSignals = { eventsWritten() {}, keyTrustChanged() {} };
const PRUNE_EVERY_MS = 10 * 60_000;

/** Opens the database, applies migrations and serves HTTP on the configured port. */
export async function startService(config: Config): Promise<RunningService> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db.sql);
  } catch (err) {
    await db.close();
    throw err;
  }
  const deps: AppDeps = { db, config, signals: NO_SIGNALS };
  const app = await createApp(deps);
  const { promise: listening, resolve } = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    port: config.port,
    hostname: config.host,
    onListen: (addr) => resolve(addr as Deno.NetAddr),
  }, app.fetch);
  const addr = await listening;
  const pruner = setInterval(() => {
    pruneRateLimitBuckets(db.sql).catch((err) => console.error("Cannot prune rate limits:", err));
  }, PRUNE_EVERY_MS);
  const host = addr.hostname === "0.0.0.0" ? "localhost" : addr.hostname;
  return {
    url: `http://${host}:${addr.port}`,
    deps,
    shutdown: async () => {
      clearInterval(pruner);
      await server.shutdown();
      await db.close();
    },
  };
}
