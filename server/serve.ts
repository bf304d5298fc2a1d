/** Starts the whole service: database, migrations, AI search, HTTP server; and stops it cleanly. */
import type { Config } from "./config.ts";
import type { AppDeps } from "./app-env.ts";
import { openDatabase } from "./db/connect.ts";
import { migrate } from "./db/migrate.ts";
import { pruneRateLimitBuckets } from "./db/rate-limit.ts";
import { createApp } from "./app.ts";
import { startAiSearch } from "./embeddings/start-ai-search.ts";
import { RequestDrain } from "./request-drain.ts";
import { listenHttp } from "./http-listen.ts";

/** A running service. */
export interface RunningService {
  url: string;
  deps: AppDeps;
  shutdown(): Promise<void>;
}

const PRUNE_EVERY_MS = 10 * 60_000;
/** How long a stop waits for requests in progress; within run-until-signal's grace period. */
const DRAIN_MS = 5_000;
const DEFAULT_READ_TIMEOUT_MS = 30_000;

/** Opens the database, applies migrations and serves HTTP on the configured port. */
export async function startService(config: Config): Promise<RunningService> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  // What is started is stopped in reverse order, also when a later step of the start fails.
  const stops: (() => Promise<void>)[] = [() => db.close()];
  const stopAll = async () => {
    for (const stop of [...stops].reverse()) await stop();
  };
  try {
    await migrate(db.sql);
    const ai = await startAiSearch(db, {
      provider: config.embeddings ?? { provider: "local" },
      runWorker: config.embeddingWorker !== "external",
    });
    stops.push(() => ai.stop());
    const deps: AppDeps = { db, config, ai };
    const app = await createApp(deps);
    const http = await listenHttp(
      config,
      async (request, info) => await app.fetch(request, info),
      {
        drain: new RequestDrain(),
        readTimeoutMs: config.requestReadTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS,
      },
    );
    stops.push(() => http.stop(DRAIN_MS));
    const pruner = setInterval(() => {
      pruneRateLimitBuckets(db.sql).catch((err) => console.error("Cannot prune rate limits:", err));
    }, PRUNE_EVERY_MS);
    stops.push(() => Promise.resolve(clearInterval(pruner)));
    const { hostname, port } = http.addr;
    const host = hostname === "0.0.0.0" ? "localhost" : hostname;
    return { url: `http://${host}:${port}`, deps, shutdown: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
