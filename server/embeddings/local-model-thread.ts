/**
 * One thread running the local model (local-model-worker.ts): posts texts to it and settles each
 * call from its reply. A thread that crashes fails what it held, as retryable, and is not used
 * again; the provider starts another on its next call.
 */
import type {
  LocalModelMessage,
  LocalModelReply,
  LocalModelRequest,
  ThreadPriorityReport,
} from "./local-model-protocol.ts";
import { EmbeddingProviderError, type EmbedPriority } from "./provider.ts";

interface Pending {
  resolve(reply: { vectors: Float32Array; dimensions: number }): void;
  reject(error: Error): void;
  count: number;
}

/** A model thread and the calls it has in hand. */
export class LocalModelThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #alive = true;
  /** Texts posted and not yet answered: how busy the thread is. */
  #textsInHand = 0;
  readonly priority: Promise<ThreadPriorityReport>;

  /** Starts the thread; it lowers its priority to `niceness` before anything else. */
  constructor(niceness: number, onCrash: (thread: LocalModelThread) => void) {
    const worker = new Worker(new URL("./local-model-worker.ts", import.meta.url).href, {
      type: "module",
    });
    const priority = Promise.withResolvers<ThreadPriorityReport>();
    this.priority = priority.promise;
    worker.onmessage = (event: MessageEvent<LocalModelReply>) => {
      if ("id" in event.data) this.#settle(event.data);
      else priority.resolve(event.data);
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.stop(`the model worker failed: ${event.message}`);
      onCrash(this);
    };
    this.#worker = worker;
    // Posted first, so the thread is lowered before it loads the model or embeds anything.
    worker.postMessage({ settings: { niceness } } satisfies LocalModelMessage);
  }

  /** Whether the thread still takes calls. */
  get alive(): boolean {
    return this.#alive;
  }

  /** Texts this thread has been given and not yet answered. */
  get textsInHand(): number {
    return this.#textsInHand;
  }

  /** The vectors of `texts`, flat, as the model thread made them. */
  embed(
    texts: string[],
    priority: EmbedPriority,
  ): Promise<{ vectors: Float32Array; dimensions: number }> {
    const request: LocalModelRequest = { id: this.#nextId++, texts, priority };
    this.#textsInHand += texts.length;
    return new Promise((resolve, reject) => {
      this.#pending.set(request.id, { resolve, reject, count: texts.length });
      this.#worker.postMessage(request satisfies LocalModelMessage);
    });
  }

  /** Ends the thread; calls it still holds fail as retryable with `why`. */
  stop(why: string): void {
    this.#alive = false;
    this.#worker.terminate();
    const error = new EmbeddingProviderError(`Cannot embed locally: ${why}`, { retryable: true });
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    this.#textsInHand = 0;
  }

  #settle(reply: Exclude<LocalModelReply, ThreadPriorityReport>): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    this.#textsInHand -= pending.count;
    if ("error" in reply) {
      pending.reject(
        new EmbeddingProviderError(`Cannot embed locally: ${reply.error}`, { retryable: false }),
      );
    } else {
      pending.resolve(reply);
    }
  }
}
