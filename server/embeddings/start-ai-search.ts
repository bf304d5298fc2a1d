/**
 * The one way AI search starts, for the server, the worker process, scripts and tests alike, with
 * one error policy: a wrong setting (an unknown provider, a missing OPENAI_API_KEY, dimensions the
 * model cannot make) stops the start with a ConfigError naming it; everything else that AI search
 * lacks (no pgvector, a provider that is down, a LISTEN that fails) is logged and leaves the
 * service running without it, reported by /healthz, and retried by itself.
 */
import { ConfigError } from "../config.ts";
import type { Database } from "../db/connect.ts";
import { AiSearch, EMBEDDING_WORK_CHANNEL } from "./ai-search.ts";
import { createEmbeddingProvider } from "./create-provider.ts";
import type { EmbeddingSettings } from "../config.ts";
import type { EmbeddingProvider } from "./provider.ts";
import { VectorAvailability } from "./vector-availability.ts";
import { EmbeddingWorker, type EmbeddingWorkerOptions } from "./worker.ts";

export interface StartAiSearchOptions {
  /** A provider, or the settings to build one from (server/config.ts). */
  provider: EmbeddingProvider | EmbeddingSettings;
  /** Run the embedding worker in this process (and start it); false when it runs elsewhere. */
  runWorker: boolean;
  /** Tuning of the worker in this process. */
  worker?: Omit<EmbeddingWorkerOptions, "sql" | "provider" | "store">;
  /** How often to look again for pgvector while it is missing. */
  recheckMs?: number;
  log?: (line: string) => void;
}

/** Starts AI search on an open, migrated database; see the error policy above. */
export async function startAiSearch(
  db: Database,
  options: StartAiSearchOptions,
): Promise<AiSearch> {
  const log = options.log ?? ((line) => console.error(line));
  const provider = "embed" in options.provider
    ? options.provider
    : providerFromSettings(options.provider);
  const availability = new VectorAvailability(db.sql, {
    model: provider.model,
    dimensions: provider.dimensions,
    recheckMs: options.recheckMs,
  });
  const worker = options.runWorker
    ? new EmbeddingWorker({
      ...options.worker,
      sql: db.sql,
      provider,
      store: availability,
    })
    : null;
  // VectorAvailability turns every failure into "unavailable, with the reason": never throws.
  const status = await availability.status();
  if (!status.available) log(`AI search is unavailable: ${status.reason}`);
  const stopListening = worker ? await listenForWork(db, () => worker.wake(), log) : undefined;
  worker?.start();
  return new AiSearch({ db, provider, availability, worker, stopListening });
}

function providerFromSettings(settings: EmbeddingSettings): EmbeddingProvider {
  try {
    return createEmbeddingProvider(settings);
  } catch (err) {
    throw new ConfigError(`Cannot start: ${(err as Error).message}`);
  }
}

/**
 * On PostgreSQL, wakes this process's worker on every NOTIFY from another process. LISTEN does not
 * reach a listener on PGlite (one session), and an embedded database has one process anyway.
 */
async function listenForWork(
  db: Database,
  wake: () => void,
  log: (line: string) => void,
): Promise<(() => Promise<void>) | undefined> {
  if (db.kind !== "postgres") return undefined;
  try {
    const { unlisten } = await db.sql.listen(EMBEDDING_WORK_CHANNEL, () => wake());
    return unlisten;
  } catch (err) {
    log(`Cannot listen for embedding work (the worker polls instead): ${(err as Error).message}`);
    return undefined;
  }
}
