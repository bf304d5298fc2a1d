/**
 * AI search as the rest of the server sees it: the embedding provider, whether the vector store
 * is usable, the embedding worker when it runs in this process, and the one call that tells
 * workers there is new work. Built by startAiSearch (start-ai-search.ts).
 */
import type { Database } from "../db/connect.ts";
import type { EmbeddingProvider } from "./provider.ts";
import type { VectorAvailability } from "./vector-availability.ts";
import type { EmbeddingWorker } from "./worker.ts";
import { aiSearchCounts } from "../db/embeddings.ts";

/** The NOTIFY channel that wakes embedding workers in other processes (PostgreSQL only). */
export const EMBEDDING_WORK_CHANNEL = "tech_events_embedding_work";

/** What /healthz reports about AI search. */
export interface AiSearchHealth {
  /**
   * ok: serving and catching up; degraded: events wait for vectors while the provider fails (they
   * are kept and embedded once it recovers); unavailable: no vector store (see reason).
   */
  state: "ok" | "degraded" | "unavailable";
  available: boolean;
  reason?: string;
  model: string;
  worker: "in-process" | "external";
  /** Events semantic search can return. */
  in_ai_search?: number;
  waiting_for_vectors?: number;
  /** Of the waiting events, those held back after failed attempts. */
  failing?: number;
  last_error?: string | null;
  /** While the provider fails: when the worker in this process tries it again. */
  retrying_at?: string | null;
}

const QUERY_CACHE_SIZE = 500;

/** What AI search is made of; startAiSearch puts it together. */
export interface AiSearchParts {
  db: Database;
  provider: EmbeddingProvider;
  availability: VectorAvailability;
  /** The worker running in this process, or null when it runs elsewhere. */
  worker: EmbeddingWorker | null;
  /** Ends the LISTEN for work of this process's worker. */
  stopListening?: () => Promise<void>;
}

/** The provider, the vector store's availability and (optionally) the worker, together. */
export class AiSearch {
  readonly provider: EmbeddingProvider;
  readonly availability: VectorAvailability;
  readonly worker: EmbeddingWorker | null;
  readonly #db: Database;
  readonly #stopListening: () => Promise<void>;
  readonly #queryCache = new Map<string, number[]>();

  constructor(parts: AiSearchParts) {
    this.#db = parts.db;
    this.provider = parts.provider;
    this.availability = parts.availability;
    this.worker = parts.worker;
    this.#stopListening = parts.stopListening ?? (() => Promise.resolve());
  }

  /**
   * Events may need vectors (a trusted key wrote, a key's trust changed): wakes the worker here at
   * once and, on PostgreSQL, workers in other processes through NOTIFY. Their slow poll covers a
   * lost notification.
   */
  wakeWorker(): void {
    this.worker?.wake();
    if (this.#db.kind !== "postgres") return;
    this.#db.sql.notify(EMBEDDING_WORK_CHANNEL, "").catch((err) => {
      console.error(`Cannot notify embedding workers: ${err.message}`);
    });
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
    if (this.#queryCache.size > QUERY_CACHE_SIZE) {
      this.#queryCache.delete(this.#queryCache.keys().next().value!);
    }
    return vector;
  }

  /** Availability, the events in AI search and waiting for it, and the worker's last failure. */
  async health(): Promise<AiSearchHealth> {
    const status = await this.availability.status();
    const base = {
      model: this.provider.model,
      worker: this.worker ? "in-process" as const : "external" as const,
    };
    if (!status.available) {
      return {
        state: "unavailable",
        available: false,
        reason: `AI search is unavailable: ${status.reason}`,
        ...base,
      };
    }
    const counts = await aiSearchCounts(this.#db.sql, this.provider.model);
    const worker = this.worker?.state();
    // The worker here knows whether its last attempt failed; an external one's failures are
    // noted on the events it gave back.
    const lastError = worker ? worker.lastError : counts.lastError;
    return {
      state: lastError !== null && counts.waiting > 0 ? "degraded" : "ok",
      available: true,
      ...base,
      in_ai_search: counts.inAiSearch,
      waiting_for_vectors: counts.waiting,
      failing: counts.failing,
      last_error: lastError,
      ...(worker ? { retrying_at: worker.backoffUntil } : {}),
    };
  }

  /** Stops listening and the worker (its batch is stored or given back); closes the provider. */
  async stop(): Promise<void> {
    await this.#stopListening();
    await this.worker?.stop();
    await this.provider.close();
  }
}
