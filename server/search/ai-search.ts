/**
 * AI search as one service: the embedding provider, whether the vector store is usable, and the
 * in-process worker. Built once at start and shared by the search endpoint, /healthz and the
 * change signals.
 */
import type { Sql } from "postgres";
import type { EmbeddingProvider } from "../embeddings/provider.ts";
import { VectorAvailability } from "../embeddings/vector-availability.ts";
import { EmbeddingWorker, type EmbeddingWorkerOptions } from "../embeddings/worker.ts";
import type { VectorStoreStatus } from "../db/vector-store.ts";
import { embeddingBacklog } from "../db/embeddings.ts";

export interface AiSearchOptions {
  sql: Sql;
  provider: EmbeddingProvider;
  /** Run the embedding worker in this process (the default); false when it runs elsewhere. */
  runWorker?: boolean;
  worker?: Omit<EmbeddingWorkerOptions, "sql" | "provider" | "store">;
  /** How often to look again for pgvector while it is missing. */
  recheckMs?: number;
}

/** What /healthz reports about AI search. */
export interface AiSearchHealth {
  available: boolean;
  reason?: string;
  model: string;
  worker: "in-process" | "external";
  waiting_for_vectors?: number;
  last_error?: string | null;
}

/** The provider, the vector store's availability and (optionally) the worker, together. */
export class AiSearch {
  readonly provider: EmbeddingProvider;
  readonly availability: VectorAvailability;
  readonly worker: EmbeddingWorker | null;
  readonly #sql: Sql;
  readonly #queryCache = new Map<string, number[]>();

  constructor(options: AiSearchOptions) {
    this.#sql = options.sql;
    this.provider = options.provider;
    this.availability = new VectorAvailability(options.sql, {
      model: options.provider.model,
      dimensions: options.provider.dimensions,
      recheckMs: options.recheckMs,
    });
    this.worker = options.runWorker === false ? null : new EmbeddingWorker({
      ...options.worker,
      sql: options.sql,
      provider: options.provider,
      store: this.availability,
    });
  }

  /** Prepares the vector store (or learns why it cannot) and starts the worker. */
  async start(): Promise<VectorStoreStatus> {
    const status = await this.availability.status();
    this.worker?.start();
    return status;
  }

  /** Stops the worker and releases the provider. */
  async stop(): Promise<void> {
    await this.worker?.stop();
    await this.provider.close();
  }

  /** Wakes the in-process worker: data it may need to embed has changed. */
  wake(): void {
    this.worker?.wake();
  }

  /** The vector of a search query; recent queries are remembered. */
  async embedQuery(text: string): Promise<number[]> {
    const cached = this.#queryCache.get(text);
    if (cached) {
      // Re-insert: a Map iterates in insertion order, so the oldest entry is first.
      this.#queryCache.delete(text);
      this.#queryCache.set(text, cached);
      return cached;
    }
    const [vector] = await this.provider.embed([text], { priority: "query" });
    this.#queryCache.set(text, vector);
    if (this.#queryCache.size > 500) {
      this.#queryCache.delete(this.#queryCache.keys().next().value!);
    }
    return vector;
  }

  /** Availability, the backlog of events waiting for vectors, and the worker's last error. */
  async health(): Promise<AiSearchHealth> {
    const status = await this.availability.status();
    const base = {
      model: this.provider.model,
      worker: this.worker ? "in-process" as const : "external" as const,
    };
    if (!status.available) {
      return { available: false, reason: `AI search is unavailable: ${status.reason}`, ...base };
    }
    const backlog = await embeddingBacklog(this.#sql, this.provider.model);
    return {
      available: true,
      ...base,
      waiting_for_vectors: backlog.waiting,
      last_error: this.worker?.state().lastError ?? backlog.lastError,
    };
  }
}
