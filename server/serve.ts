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
import { RequestDrain } from "./request-drain.ts";

/** A running service. */
export interface RunningService {
  url: string;
  deps: AppDeps;
  shutdown(): Promise<void>;
}

const PRUNE_EVERY_MS = 10 * 60_000;
/** How long a stop waits for requests in progress; within run-until-signal's grace period. */
const DRAIN_MS = 5_000;

/** Serves `handler` on the configured port; a port that cannot be had is a ConfigError. */
async function listen(
  config: Pick<Config, "port" | "host">,
  handler: Deno.ServeHandler<Deno.NetAddr>,
): Promise<{ server: Deno.HttpServer<Deno.NetAddr>; addr: Deno.NetAddr }> {
  const { promise: listening, resolve } = Promise.withResolvers<Deno.NetAddr>();
  let server;
  try {
    server = Deno.serve({
      port: config.port,
      hostname: config.host,
      onListen: (addr) => resolve(addr as Deno.NetAddr),
    }, handler);
  } catch (err) {
    throw listenError(err, config) ?? err;
  }
  return { server, addr: await listening };
}

function listenError(err: unknown, { port, host }: Pick<Config, "port" | "host">) {
  const where = `port ${port} on ${host}`;
  if (err instanceof Deno.errors.AddrInUse) {
    return new ConfigError(
      `Cannot start: ${where} is already in use by another program: stop that program or set ` +
        "PORT to a free port",
    );
  }
  if (err instanceof Deno.errors.AddrNotAvailable) {
    return new ConfigError(
      `Cannot start: ${host} is not an address of this machine: set HOST to one of its ` +
        "addresses, or to 0.0.0.0 for all of them",
    );
  }
  if (err instanceof Deno.errors.PermissionDenied) {
    return new ConfigError(
      `Cannot start: this user may not listen on ${where}: set PORT to 1024 or above`,
    );
  }
  return null;
}

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
  const drain = new RequestDrain();
  let server: Deno.HttpServer<Deno.NetAddr>;
  let addr: Deno.NetAddr;
  try {
    ({ server, addr } = await listen(
      config,
      drain.wrap(async (request, info) => await app.fetch(request, info)),
    ));
  } catch (err) {
    await unlisten?.();
    await ai.stop();
    await db.close();
    throw err;
  }
  const pruner = setInterval(() => {
    pruneRateLimitBuckets(db.sql).catch((err) => console.error("Cannot prune rate limits:", err));
  }, PRUNE_EVERY_MS);
  const host = addr.hostname === "0.0.0.0" ? "localhost" : addr.hostname;
  return {
    url: `http://${host}:${addr.port}`,
    deps,
    shutdown: async () => {
      clearInterval(pruner);
      await drain.drain(DRAIN_MS);
      await server.shutdown();
      await unlisten?.();
      await ai.stop();
      await db.close();
    },
  };
}
