/**
 * The one interface every embedding backend implements, and the error it throws. The worker and
 * the search endpoint depend on this file only, never on a concrete provider.
 */

/** Who is waiting for an embedding: a search request jumps ahead of background work. */
export type EmbedPriority = "query" | "background";

export interface EmbedOptions {
  priority?: EmbedPriority;
}

/** Turns texts into unit-length vectors of a fixed size. */
export interface EmbeddingProvider {
  /**
   * Names the model and every setting that changes its vectors, such as
   * "openai:text-embedding-3-small:1536" or "local:use-lite:512". Vectors made under one name are
   * never compared with vectors made under another.
   */
  readonly model: string;
  readonly dimensions: number;
  /**
   * Texts the worker hands over at once (default 32). A remote provider takes large batches: one
   * request for many texts is what its rate limits count, and what keeps a backlog draining.
   */
  readonly batchSize?: number;
  /**
   * Batches the worker may have in flight at once (default 1). A remote provider answers while
   * the previous batch's vectors are being stored; a local model has one thread to give.
   */
  readonly concurrency?: number;
  /** One vector per text, in the same order, each of length `dimensions` and norm 1. */
  embed(texts: string[], options?: EmbedOptions): Promise<number[][]>;
  /** Releases what the provider holds (a worker thread, open connections). */
  close(): Promise<void>;
}

export interface EmbeddingProviderErrorOptions {
  /** Whether the same request may succeed later (rate limit, server error, network). */
  retryable: boolean;
  /** How long the provider asked us to wait, when it said so. */
  retryAfterMs?: number;
  /** The HTTP status of the provider's answer, when there was one. */
  status?: number;
  cause?: unknown;
}

/** A provider failed to embed; says whether and when to try again. */
export class EmbeddingProviderError extends Error {
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly status?: number;

  constructor(message: string, options: EmbeddingProviderErrorOptions) {
    super(message, { cause: options.cause });
    this.name = "EmbeddingProviderError";
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
    this.status = options.status;
  }
}

/** Scales a vector to length 1 so that cosine distance is a plain dot product. */
export function normalizeVector(vector: ArrayLike<number>): number[] {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  const norm = Math.sqrt(sum);
  const out = new Array<number>(vector.length);
  // A zero vector has no direction; leave it as is rather than divide by zero.
  const scale = norm > 0 ? 1 / norm : 1;
  for (let i = 0; i < vector.length; i++) out[i] = vector[i] * scale;
  return out;
}

/** Checks a provider's answer: one finite vector of the right size per text. */
export function checkVectors(
  vectors: number[][],
  expectedCount: number,
  dimensions: number,
  model: string,
): void {
  if (vectors.length !== expectedCount) {
    throw new EmbeddingProviderError(
      `Cannot use the answer of ${model}: asked for ${expectedCount} vectors, got ${vectors.length}`,
      { retryable: false },
    );
  }
  for (const v of vectors) {
    if (v.length !== dimensions || !v.every(Number.isFinite)) {
      throw new EmbeddingProviderError(
        `Cannot use the answer of ${model}: expected ${dimensions} finite numbers per vector, got ${v.length}`,
        { retryable: false },
      );
    }
  }
}
