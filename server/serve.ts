/** Starts the whole service: database, migrations, HTTP server; and stops it cleanly. */
import { type Config, ConfigError } from "./config.ts";
import type { AppDeps } from "./app-env.ts";
import { openDatabase } from "./db/connect.ts";
import { migrate } from "./db/migrate.ts";
import { pruneRateLimitBuckets } from "./db/rate-limit.ts";
import { createApp } from "./app.ts";
import { createEmbeddingProvider } from "./embeddings/create-provider.ts";
import { embeddingChangeSignals, listenForEmbeddingWork } from "./embeddings/change-signals.ts";
import { AiSearch } from "./search/ai-search.ts";

/** A running service. */
export interface RunningService {
  url: string;
  deps: AppDeps;
  shutdown(): Promise<void>;
}

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
  let provider;
  try {
    provider = createEmbeddingProvider(config.embeddings ?? { provider: "local" });
  } catch (err) {
    await db.close();
    throw new ConfigError(`Cannot start: ${(err as Error).message}`);
  }
  const ai = new AiSearch({
    sql: db.sql,
    provider,
    runWorker: config.embeddingWorker !== "external",
  });
  const aiStatus = await ai.start();
  if (!aiStatus.available) console.error(`AI search is unavailable: ${aiStatus.reason}`);
  const unlisten = ai.worker ? await listenForEmbeddingWork(db, () => ai.wake()) : null;
  const signals = embeddingChangeSignals(db, () => ai.wake());
  const deps: AppDeps = { db, config, signals, ai };
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
      await unlisten?.();
      await ai.stop();
      await db.close();
    },
  };
}
