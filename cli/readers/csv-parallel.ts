/**
 * CSV checked on worker threads: the main thread cuts the input into blocks of whole rows and
 * hands them out; each worker parses, types and checks its blocks with the shared schema; the
 * records come back in file order. Worker threads also get a larger young generation: the schema
 * check allocates much, and with V8's default most of its time went to garbage collection.
 */
import { Worker } from "node:worker_threads";
import { InputError } from "../errors.ts";
import type { CheckedRecord } from "./check-record.ts";
import { checkOptionsOf } from "./check-record.ts";
import { csvInputError, csvLayout } from "./csv.ts";
import { type CsvBlock, csvBlocks, CsvSyntaxError } from "./csv-grammar.ts";
import { CSV_CHECK_ROLE, type CsvCheckAnswer, type CsvCheckSetup } from "./csv-check-worker.ts";
import type { ReaderOptions } from "./record.ts";

/** When and how to check on worker threads. */
export interface ParallelSettings {
  /** The script the workers run: the CLI's own bundle. */
  workerUrl: string;
  workers: number;
  /** Inputs smaller than this (or of unknown size) are checked on the main thread. */
  minBytes: number;
}

const BLOCK_CHARS = 256 * 1024;
const YOUNG_GENERATION_MB = 64;

/** Workers that each check one block at a time, answering in any order. */
class CheckPool {
  readonly #workers: Worker[] = [];
  readonly #idle: Worker[] = [];
  readonly #queue: { request: { id: number; block: CsvBlock }; done: Handlers }[] = [];
  readonly #pending = new Map<number, Handlers>();
  #failure: Error | null = null;

  constructor(settings: ParallelSettings, setup: CsvCheckSetup) {
    for (let i = 0; i < settings.workers; i++) {
      const worker = new Worker(new URL(settings.workerUrl), {
        workerData: setup,
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      });
      worker.on("message", (answer: CsvCheckAnswer) => {
        this.#pending.get(answer.id)?.resolve(answer);
        this.#pending.delete(answer.id);
        this.#idle.push(worker);
        this.#next();
      });
      worker.on("error", (error) => this.#fail(error));
      this.#workers.push(worker);
      this.#idle.push(worker);
    }
  }

  #fail(error: Error): void {
    this.#failure = error;
    for (const handlers of this.#pending.values()) handlers.reject(error);
    for (const { done } of this.#queue) done.reject(error);
    this.#pending.clear();
    this.#queue.length = 0;
  }

  #next(): void {
    while (this.#idle.length > 0 && this.#queue.length > 0) {
      const { request, done } = this.#queue.shift()!;
      this.#pending.set(request.id, done);
      this.#idle.pop()!.postMessage(request);
    }
  }

  /** Checks one block; resolves with its answer. */
  check(id: number, block: CsvBlock): Promise<CsvCheckAnswer> {
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      this.#queue.push({ request: { id, block }, done: { resolve, reject } });
      this.#next();
    });
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.terminate()));
  }
}

interface Handlers {
  resolve: (answer: CsvCheckAnswer) => void;
  reject: (error: Error) => void;
}

/** Whether an input of `size` bytes is worth the workers' start-up. */
export function useWorkers(settings: ParallelSettings | undefined, size: number | null): boolean {
  return settings !== undefined && settings.workers > 0 && size !== null &&
    size >= settings.minBytes;
}

/** Every record of a CSV input, checked on worker threads, in file order, a block at a time. */
export async function* readCsvInParallel(
  chunks: AsyncIterable<string>,
  options: ReaderOptions,
  settings: { parallel: ParallelSettings; keepEvents: boolean },
): AsyncGenerator<CheckedRecord[]> {
  const blocks = csvBlocks(chunks, BLOCK_CHARS);
  let pool: CheckPool | null = null;
  try {
    const header = await blocks.next();
    if (header.done) {
      throw new InputError(`Cannot read ${options.sourceName} as CSV: it has no header row`);
    }
    const layout = csvLayout(header.value, options);
    pool = new CheckPool(settings.parallel, {
      role: CSV_CHECK_ROLE,
      layout,
      sourceName: options.sourceName,
      check: checkOptionsOf(options),
      keepEvents: settings.keepEvents,
    });
    // Blocks in flight, oldest first: enough to keep every worker busy, few enough to bound memory.
    const inFlight: Promise<CsvCheckAnswer>[] = [];
    const limit = settings.parallel.workers * 2;
    let id = 0;
    for await (const block of blocks) {
      inFlight.push(pool.check(id++, block));
      if (inFlight.length >= limit) yield* answered(await inFlight.shift()!);
    }
    while (inFlight.length > 0) yield* answered(await inFlight.shift()!);
  } catch (error) {
    throw csvInputError(error, options.sourceName);
  } finally {
    await pool?.close();
  }
}

// Stands for each valid record of a block whose events were not kept (validate only counts them).
const COUNTED: CheckedRecord = Object.freeze({ kind: "valid", location: "", event: {} });

/** The records of an answer; then the syntax error that ended its block, if any. */
function* answered(answer: CsvCheckAnswer): Generator<CheckedRecord[]> {
  // The rows before an error are read all the same.
  const records = answer.records;
  for (let i = 0; i < answer.valid; i++) records.push(COUNTED);
  yield records;
  if (answer.error) throw new CsvSyntaxError(answer.error.message, answer.error.line);
}
