/**
 * Whether AI search can run here, checked once and then remembered; when it cannot, checked again
 * now and then, so that installing pgvector on a running database is noticed without a restart.
 */
import type { Sql } from "postgres";
import { prepareVectorStore, type VectorStoreStatus } from "../db/vector-store.ts";

export interface VectorAvailabilityOptions {
  model: string;
  dimensions: number;
  /** How long an "unavailable" answer is trusted before checking again. */
  recheckMs?: number;
}

/** The vector store's state for one embedding model, shared by the worker and search. */
export class VectorAvailability {
  readonly #sql: Sql;
  readonly #o: Required<VectorAvailabilityOptions>;
  #last: VectorStoreStatus | null = null;
  #checkedAt = 0;
  #pending: Promise<VectorStoreStatus> | null = null;

  constructor(sql: Sql, options: VectorAvailabilityOptions) {
    this.#sql = sql;
    // `?? `, not a spread: callers pass `recheckMs: undefined` through, which a spread would keep,
    // and "unavailable" was then checked again on every search.
    this.#o = { ...options, recheckMs: options.recheckMs ?? 60_000 };
  }

  /** The current state, preparing the store on first use and re-checking when it is due. */
  status(): Promise<VectorStoreStatus> {
    const fresh = this.#last !== null &&
      (this.#last.available || Date.now() - this.#checkedAt < this.#o.recheckMs);
    if (fresh) return Promise.resolve(this.#last!);
    this.#pending ??= this.#check().finally(() => (this.#pending = null));
    return this.#pending;
  }

  async #check(): Promise<VectorStoreStatus> {
    let status: VectorStoreStatus;
    try {
      status = await prepareVectorStore(this.#sql, this.#o.model, this.#o.dimensions);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      status = { available: false, reason: `preparing the vector store failed: ${message}` };
    }
    this.#last = status;
    this.#checkedAt = Date.now();
    return status;
  }
}
