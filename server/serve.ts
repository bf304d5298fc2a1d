/** Starts the whole service: database, migrations, AI search, HTTP server; and stops it cleanly. */
import type { Sql } from "postgres";
import type { Config } from "./config.ts";
import type { Hono } from "hono";
import type { AppDeps, AppEnv } from "./app-env.ts";
import { openDatabase } from "./db/connect.ts";
import { migrate } from "./db/migrate.ts";
import { pruneRateLimitBuckets } from "./db/rate-limit.ts";
import { DUPLICATE_RULES_VERSION, redetectUnderCurrentRules } from "./duplicates/rules-version.ts";
import { adoptRulesWhenEmpty } from "./db/duplicate-rules.ts";
import { pruneOrphanSignals } from "./db/event-signals.ts";
import { vacuumEmbedded } from "./db/embedded-vacuum.ts";
import { createApp } from "./app.ts";
import { startAiSearch } from "./embeddings/start-ai-search.ts";
import { RequestDrain } from "./request-drain.ts";
import { BatchSlots } from "./events/batch-slots.ts";
import { InFlight } from "./in-flight.ts";
import { DuplicateDetector } from "./duplicates/duplicate-detector.ts";
import { startAlerts } from "./alerts/start-alerts.ts";
import { startFederation } from "./federation/service.ts";
import { setFederationSwitch } from "./db/federation-objects.ts";
import { listenHttp } from "./http-listen.ts";
import { StorageGuard } from "./db/disk-space.ts";
import type { VectorAvailability } from "./embeddings/vector-availability.ts";

/** A running service. */
export interface RunningService {
  url: string;
  deps: AppDeps;
  shutdown(): Promise<void>;
}

const PRUNE_EVERY_MS = 10 * 60_000;
/** How long a stop waits for requests in progress; within run-until-signal's grace period. */
const DRAIN_MS = 5_000;
const VACUUM_EVERY_MS = 60_000;
/** See backgroundTurn. */
const BACKGROUND_WAIT_MS = 250;
const BACKGROUND_IDLE_MS = 50;

/** The application and what it depends on, started but not listening. */
export interface OpenedService {
  app: Hono<AppEnv>;
  deps: AppDeps;
  close(): Promise<void>;
}

/**
 * Opens the database, applies migrations, starts AI search and builds the app, without a socket:
 * startService serves it, and tests call its `app.fetch` in-process with the very same deps.
 */
export async function openService(config: Config): Promise<OpenedService> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  // What is started is stopped in reverse order, also when a later step of the start fails.
  const stops: (() => Promise<void>)[] = [() => db.close()];
  const stopAll = async () => {
    for (const stop of [...stops].reverse()) await stop();
  };
  try {
    await migrate(db.sql);
    await adoptRulesWhenEmpty(db.sql, DUPLICATE_RULES_VERSION);
    const storage = db.kind === "pglite"
      ? new StorageGuard(config.dataDir, config.dataMinFreeBytes)
      : undefined;
    const ai = await startAiSearch(db, {
      provider: config.embeddings,
      runWorker: config.embeddingWorker !== "external",
      worker: storage ? { roomToWrite: () => storage.roomToWrite() } : undefined,
    });
    stops.push(() => ai.stop());
    const batchSlots = BatchSlots.forPool(db.poolSize);
    const pushes = new InFlight();
    const requests = new InFlight();
    const alerts = startAlerts(db.sql, config, () => pushes.lastAt());
    stops.push(() => alerts.stop());
    // Started here, not with the socket: in-process tests push and read through app.fetch.
    const duplicates = new DuplicateDetector(db.sql, { followUp: alerts });
    duplicates.start();
    stops.push(() => duplicates.stop());
    const federation = config.federation.enabled
      ? await startFederation(db.sql, {
        origin: config.publicUrl,
        allowPrivateAddress: config.federation.allowPrivateAddress,
        settled: () => duplicates.settled(),
        // Requests first, on both databases: on the embedded one, one session, a transaction of
        // the publisher holds up every request that comes meanwhile; on PostgreSQL its work shares
        // the server's one JavaScript thread and the machine's cores with them.
        turn: () => backgroundTurn(requests),
      })
      : undefined;
    if (federation) stops.push(() => federation.stop());
    else await setFederationSwitch(db.sql, false);
    const deps: AppDeps = {
      db,
      config,
      ai,
      storage,
      batchSlots,
      pushes,
      requests,
      duplicates,
      alerts,
      federation,
    };
    return { app: await createApp(deps), deps, close: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** Opens the database, applies migrations and serves HTTP on the configured port. */
export async function startService(config: Config): Promise<RunningService> {
  const { app, deps, close } = await openService(config);
  const { db } = deps;
  const stops: (() => Promise<void>)[] = [close];
  const stopAll = async () => {
    for (const stop of [...stops].reverse()) await stop();
  };
  try {
    const http = await listenHttp(
      config,
      async (request, info) => await app.fetch(request, info),
      {
        drain: new RequestDrain(),
        readTimeoutMs: config.requestReadTimeoutMs,
      },
    );
    stops.push(() => http.stop(DRAIN_MS));
    stops.push(redetectDuplicatesIfRulesChanged(db.sql, deps.ai.availability));
    const pruner = setInterval(() => {
      pruneRateLimitBuckets(db.sql).catch((err) => console.error("Cannot prune rate limits:", err));
      pruneOrphanSignals(db.sql).catch((err) => console.error("Cannot prune signals:", err));
    }, PRUNE_EVERY_MS);
    stops.push(() => Promise.resolve(clearInterval(pruner)));
    if (db.kind === "pglite") {
      stops.push(vacuumEmbeddedNowAndThen(db.sql, () => backgroundTurn(deps.requests)));
    }
    const { hostname, port } = http.addr;
    const host = hostname === "0.0.0.0" ? "localhost" : hostname;
    deps.federation?.useOrigin(`http://${host}:${port}`);
    return { url: `http://${host}:${port}`, deps, shutdown: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/**
 * When background work that would hold up requests may go (the embedded database's upkeep,
 * federation's publisher on either database): once no request has been in flight for
 * BACKGROUND_IDLE_MS (a client's requests one after another leave gaps of a millisecond), or
 * BACKGROUND_WAIT_MS after asking at the latest.
 */
function backgroundTurn(requests: InFlight): Promise<void> {
  return requests.quiet(BACKGROUND_WAIT_MS, BACKGROUND_IDLE_MS);
}

/**
 * The embedded database's vacuum and statistics (it runs no autovacuum), looked at once a minute
 * as autovacuum would; one run at a time.
 * Returns the stop, which waits for a run under way.
 */
function vacuumEmbeddedNowAndThen(sql: Sql, turn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    running ??= vacuumEmbedded(sql, turn).then(
      () => {},
      (err) => console.error("Cannot vacuum the embedded database:", err),
    ).finally(() => running = null);
  }, VACUUM_EVERY_MS);
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * Events stored under older duplicate rules are looked at again, in the background: the service
 * answers meanwhile, and a run stopped with the service (the returned stop) resumes at the next
 * start.
 */
function redetectDuplicatesIfRulesChanged(
  sql: Sql,
  availability: VectorAvailability,
): () => Promise<void> {
  const started = performance.now();
  const stop = new AbortController();
  const running = redetectUnderCurrentRules(sql, {
    signal: stop.signal,
    // Pairs found by their vectors keep their links where the vector store is prepared.
    vectors: async () => (await availability.status()).available,
  }).then((seen) => {
    if (seen === 0) return;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const done = stop.signal.aborted ? "so far, the rest at the next start" : "";
    console.log(
      `Duplicates: ${seen} events looked at again under the current rules in ${seconds} s ${done}`
        .trim(),
    );
  }).catch((err) => console.error("Cannot re-detect duplicates under the current rules:", err));
  return async () => {
    stop.abort();
    await running;
  };
}
