/**
 * `bench-duplicates.ts --through http`: the timed batches pushed as contributors push them, to
 * POST /api/v1/events of the service opened on the loaded database, one batch at a time with two
 * trusted keys. The service is served twice on loopback ports, from one process and one database:
 * as it runs, and with its detection step left out, so that both ways see the same database and
 * load, as in the benchmark's rounds in the database.
 */
import type { Sql } from "postgres";
import type { EventRecord } from "../../shared/event-schema.ts";
import { generateApiKey } from "../../shared/api-key-format.ts";
import { configWith } from "../../server/config.ts";
import { openService } from "../../server/serve.ts";
import { createApp } from "../../server/app.ts";
import { listenHttp } from "../../server/http-listen.ts";
import { RequestDrain } from "../../server/request-drain.ts";
import { DuplicateDetector } from "../../server/duplicates/duplicate-detector.ts";
import type { DatabaseLocation } from "../../dev-support/databases.ts";
import { createApiKey } from "../../dev-support/test-server.ts";
import { testFetch } from "../../dev-support/in-process-fetch.ts";

/** Ingestion as the server runs it, but for detection: nothing is detected, queued or waited for. */
class NoDetection extends DuplicateDetector {
  override queue(): Promise<void> {
    return Promise.resolve();
  }

  override committed(): void {}
}

/** The two servers, and how to push to them. */
export interface HttpPushers {
  /** The service's database connection (for its CPU time). */
  sql: Sql;
  /**
   * Pushes `work`'s batches in order, each with its writer's key (0 or 1), to the server with or
   * without detection; with it, until every event is detected. Milliseconds until the last push
   * returned, and until every event was detected.
   */
  pushAll(
    work: [number, EventRecord[]][],
    detect: boolean,
  ): Promise<{ pushed: number; detected: number }>;
  close(): Promise<void>;
}

/** Opens the service on the database at `location` (closed by everyone else) and serves it twice. */
export async function openHttpPushers(location: DatabaseLocation): Promise<HttpPushers> {
  const adminKey = generateApiKey();
  const config = configWith({
    port: 0,
    host: "127.0.0.1",
    dataDir: location.dataDir,
    databaseUrl: location.databaseUrl,
    adminApiKey: adminKey,
    publicRateLimitPerMinute: 10_000_000,
    trustProxy: false,
    logRequests: false,
    embeddingWorker: "external",
  });
  const service = await openService(config);
  const { deps } = service;
  const stops: (() => Promise<void>)[] = [service.close];
  const serve = async (app: typeof service.app) => {
    const listener = await listenHttp(
      config,
      async (request, info) => await app.fetch(request, info),
      {
        drain: new RequestDrain(),
        readTimeoutMs: config.requestReadTimeoutMs,
      },
    );
    stops.push(() => listener.stop(1_000));
    return `http://127.0.0.1:${listener.addr.port}`;
  };
  const close = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    const urls = {
      on: await serve(service.app),
      off: await serve(
        await createApp({
          ...deps,
          duplicates: new NoDetection(deps.db.sql),
        }),
      ),
    };
    const keys: string[] = [];
    for (const contributor of ["bench-http-a", "bench-http-b"]) {
      const server = { url: urls.on, adminKey };
      const key = await createApiKey(server, { contributor, rate_limit_per_minute: 100_000 });
      // Trusted, as a reviewed pipeline's key: no budget or review signals in the way.
      const trusted = await testFetch(`${urls.on}/api/v1/admin/keys/${key.id}/trust`, {
        method: "POST",
        headers: { Authorization: `Bearer ${adminKey}` },
      });
      if (trusted.status !== 200) throw new Error(`Cannot trust a key: ${await trusted.text()}`);
      keys.push(key.key);
    }
    return {
      sql: deps.db.sql,
      pushAll: async (work, detect) => {
        const bodies = work.map(([, events]) => JSON.stringify({ events }));
        const started = performance.now();
        for (const [i, [who]] of work.entries()) {
          const res = await fetch(`${detect ? urls.on : urls.off}/api/v1/events`, {
            method: "POST",
            headers: { Authorization: `Bearer ${keys[who]}`, "Content-Type": "application/json" },
            body: bodies[i],
          });
          const body = await res.json();
          if (res.status !== 200 || body.data.errors.length > 0) {
            throw new Error(`A push failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
          }
        }
        const pushed = performance.now() - started;
        if (detect) await deps.duplicates.settled(10 * 60_000);
        return { pushed, detected: performance.now() - started };
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
