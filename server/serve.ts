/** Starts the whole service: database, migrations, AI search, HTTP server; and stops it cleanly. */
import { type Config, ConfigError } from "./config.ts";
import type { AppDeps } from "./app-env.ts";
import { openDatabase } from "./db/connect.ts";
import { migrate } from "./db/migrate.ts";
import { pruneRateLimitBuckets } from "./db/rate-limit.ts";
import { createApp } from "./app.ts";
import { startAiSearch } from "./embeddings/start-ai-search.ts";
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
    const drain = new RequestDrain();
    const { server, addr } = await listen(
      config,
      drain.wrap(async (request, info) => await app.fetch(request, info)),
    );
    stops.push(async () => {
      await drain.drain(DRAIN_MS);
      await server.shutdown();
    });
    const pruner = setInterval(() => {
      pruneRateLimitBuckets(db.sql).catch((err) => console.error("Cannot prune rate limits:", err));
    }, PRUNE_EVERY_MS);
    stops.push(() => Promise.resolve(clearInterval(pruner)));
    const host = addr.hostname === "0.0.0.0" ? "localhost" : addr.hostname;
    return { url: `http://${host}:${addr.port}`, deps, shutdown: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
