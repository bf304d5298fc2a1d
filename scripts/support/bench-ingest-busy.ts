/**
 * Ingestion latency through the real server while the embedding worker idles and while it works,
 * and how fast the embedding backlog drains meanwhile.
 *
 * Sound by construction: a warm-up first (model loaded, one batch embedded, untimed batches);
 * then several rounds, each timing the same batches (same content, only the ids differ) once with
 * the worker stopped and once with it embedding, in alternating order so that the table's growth
 * favours neither. Each round gives a busy/idle p95 ratio; the figure is the median of rounds.
 */
import {
  createApiKey,
  postBatch,
  startTestServer,
  type TestServer,
} from "../../dev-support/test-server.ts";
import { realisticEvents } from "./realistic-events.ts";
import { fmt, percentile } from "./stats.ts";
import type { FigureLog, Target } from "./figures.ts";

export interface IngestBusyOptions {
  /** Rounds of idle + busy; the ratio reported is their median. */
  rounds?: number;
  /** Timed 100-event batches per phase. */
  batches?: number;
  /** Niceness of the local model's thread (EMBEDDINGS_LOCAL_NICENESS); the server's default if absent. */
  niceness?: number;
  /** Threads running the local model (EMBEDDINGS_LOCAL_THREADS); the server's default if absent. */
  threads?: number;
  /** Seconds of the throughput phases (with and without ingestion). */
  throughputSeconds?: number;
  /** Where to record the figures, besides printing them. */
  log?: FigureLog;
  targets?: { drainIdle?: Target; drainBusy?: Target };
}

const BACKLOG = 4000;

/** Prints ingestion p50/p95 of 100-event batches, worker idle vs embedding a backlog. */
export async function measureIngestionUnderEmbedding(
  options: IngestBusyOptions = {},
): Promise<void> {
  const rounds = options.rounds ?? 5;
  const batches = options.batches ?? 40;
  const seconds = options.throughputSeconds ?? 20;
  const server = await startTestServer("pglite", {
    embeddings: {
      provider: "local",
      localNiceness: options.niceness,
      localThreads: options.threads,
    },
  });
  const ai = server.service.deps.ai;
  const worker = ai.worker!;
  try {
    const writer = await createApiKey(server, {
      contributor: "writer",
      rate_limit_per_minute: 100_000,
    });
    const bulk = await createApiKey(server, {
      contributor: "bulk",
      rate_limit_per_minute: 100_000,
    });
    for (let first = 0; first < BACKLOG; first += 100) {
      await postBatch(server.url, bulk.key, { events: realisticEvents(1_000_000 + first, 100) });
    }
    await adminPost(server, `/api/v1/admin/keys/${bulk.id}/trust`);
    // Warm-up: the model loads and one batch is stored before anything is timed.
    while (worker.state().embedded === 0) await sleep(100);
    await worker.stop();
    await timeBatches(server, writer.key, batchSet(2_000_000, 10), "warm");

    const idle: number[][] = [];
    const busy: number[][] = [];
    const queryMs: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const set = batchSet(3_000_000 + r * batches * 100, batches);
      const runIdle = async () => idle.push(await timeBatches(server, writer.key, set, "idle"));
      const runBusy = async () => {
        worker.start();
        await sleep(300); // the worker claims and starts its first chunk
        busy.push(await timeBatches(server, writer.key, set, "busy"));
        queryMs.push(...await timeSearches(server, r));
        await worker.stop();
      };
      if (r % 2 === 0) await runIdle().then(runBusy);
      else await runBusy().then(runIdle);
    }

    worker.start();
    const quiet = await drainRate(server, seconds * 1000, null);
    const loaded = await drainRate(server, seconds * 1000, writer.key);
    const { waiting_for_vectors: left } = await ai.health();
    await worker.stop();

    const ratios = idle.map((times, r) => percentile(busy[r], 95) / percentile(times, 95));
    const priority = "threadPriority" in ai.provider
      ? await (ai.provider as { threadPriority(): Promise<{ niceness: number | null }> })
        .threadPriority()
      : { niceness: null };
    console.log(
      `\nIngestion through HTTP on PGlite, ${rounds} rounds x ${batches} batches of 100 events ` +
        `per phase, one client; model thread niceness ${priority.niceness ?? "unchanged"}`,
    );
    const line = (name: string, t: number[]) =>
      `  ${name}  p50 ${fmt(percentile(t, 50))} ms   p95 ${fmt(percentile(t, 95))} ms`;
    console.log(line("worker idle", idle.flat()));
    console.log(line("worker busy", busy.flat()));
    console.log(
      `  busy/idle p95 ratio per round: ${ratios.map((x) => x.toFixed(2)).join(" ")}; ` +
        `median ${median(ratios).toFixed(2)}`,
    );
    console.log(
      `  semantic search (new query each) while embedding: p50 ${fmt(percentile(queryMs, 50))} ms` +
        `   max ${fmt(Math.max(...queryMs))} ms`,
    );
    console.log(
      `  backlog drained: ${fmt(quiet)} events/s with no requests, ${fmt(loaded)} events/s ` +
        `during back-to-back ingestion (${left} still waiting)`,
    );
    if (!left) console.log("  WARNING: the backlog ran out; busy figures include idle time");
    const section = "Embedding, PGlite";
    options.log?.add({
      section,
      name: "local-model drain, no requests",
      value: quiet,
      unit: "events/s",
      target: options.targets?.drainIdle,
    });
    options.log?.add({
      section,
      name: "local-model drain, during back-to-back ingestion",
      value: loaded,
      unit: "events/s",
      target: options.targets?.drainBusy,
      note: left ? undefined : "the backlog ran out",
    });
    options.log?.add({
      section,
      name: "100-event batch p95, HTTP, worker busy / idle",
      value: median(ratios),
      unit: "x",
      note: `idle p95 ${percentile(idle.flat(), 95).toFixed(1)} ms, busy p95 ` +
        `${percentile(busy.flat(), 95).toFixed(1)} ms`,
    });
  } finally {
    await server.close();
  }
}

/** `count` batches of 100 events, the same for every phase of a round but for their ids. */
function batchSet(first: number, count: number): Record<string, unknown>[][] {
  return Array.from({ length: count }, (_, b) => realisticEvents(first + b * 100, 100));
}

async function timeBatches(
  server: TestServer,
  key: string,
  set: Record<string, unknown>[][],
  phase: string,
): Promise<number[]> {
  const times: number[] = [];
  for (const batch of set) {
    const events = batch.map((e) => ({ ...e, external_id: `${e.external_id}-${phase}` }));
    const t = performance.now();
    const res = await postBatch(server.url, key, { events });
    times.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`Cannot ingest: ${res.status}`);
  }
  return times;
}

/** A few semantic searches, each a query the server has not embedded yet. */
async function timeSearches(server: TestServer, round: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < 4; i++) {
    const q = encodeURIComponent(`workshop on observability number ${round * 4 + i}`);
    const t = performance.now();
    const res = await fetch(`${server.url}/api/v1/search?q=${q}&mode=semantic`);
    await res.body?.cancel();
    times.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`Cannot search: ${res.status}`);
  }
  return times;
}

/** Events per second leaving the backlog over `ms`, with back-to-back ingestion when `key` is set. */
async function drainRate(server: TestServer, ms: number, key: string | null): Promise<number> {
  const ai = server.service.deps.ai;
  const before = (await ai.health()).waiting_for_vectors ?? 0;
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < ms) {
    if (key) await timeBatches(server, key, batchSet(8_000_000 + n++ * 100, 1), "drain");
    else await sleep(100);
  }
  const after = (await ai.health()).waiting_for_vectors ?? 0;
  return (before - after) / ((performance.now() - started) / 1000);
}

async function adminPost(server: TestServer, path: string): Promise<void> {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${server.adminKey}` },
  });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`Cannot POST ${path}: ${res.status}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
