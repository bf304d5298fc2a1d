/**
 * Search and embedding figures: local embedding throughput; text, semantic and hybrid latency
 * (in-process and through HTTP) at each size on PGlite, and text on PostgreSQL when
 * TEST_DATABASE_URL is set; and ingestion through the HTTP server while the embedding worker is
 * idle and while it is busy. scripts/bench.ts runs all of this and more, and writes
 * docs/benchmarks.md.
 *
 *   deno run -A scripts/bench-search.ts [--sizes 10000,100000] [--runs 300] [--skip-ingest]
 *     [--only-ingest] [--rounds 5] [--niceness 0-19] [--threads N] [--databases pglite,postgres]
 *
 * --databases limits the search figures to those databases (PostgreSQL needs TEST_DATABASE_URL).
 * --niceness sets the local model thread's priority as EMBEDDINGS_LOCAL_NICENESS does (0 is how
 * the model ran before it yielded to request handling); --threads the model threads as
 * EMBEDDINGS_LOCAL_THREADS does; --rounds is the busy/idle rounds.
 */
import { parseArgs } from "node:util";
import { EventBatch } from "../shared/event-schema.ts";
import { LocalProvider } from "../server/embeddings/local-provider.ts";
import { embeddingText, EVENT_TEXT } from "../server/embeddings/embedding-text.ts";
import process from "node:process";
import { realisticEvents } from "./support/realistic-events.ts";
import { fmt, percentile } from "./support/stats.ts";
import { measureIngestionUnderEmbedding } from "./support/bench-ingest-busy.ts";
import { benchSearch, TEXT_QUERIES } from "./support/bench-search-figures.ts";
import { FigureLog } from "./support/figures.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "10000,100000" },
    runs: { type: "string", default: "300" },
    "skip-ingest": { type: "boolean", default: false },
    "only-ingest": { type: "boolean", default: false },
    rounds: { type: "string", default: "5" },
    niceness: { type: "string" },
    threads: { type: "string" },
    databases: { type: "string", default: "pglite,postgres" },
  },
});
const SIZES = values["only-ingest"] ? [] : values.sizes.split(",").map(Number);
const NICENESS = values.niceness === undefined ? undefined : Number(values.niceness);
const THREADS = values.threads === undefined ? undefined : Number(values.threads);
const RUNS = Number(values.runs);
const log = new FigureLog();

if (!values["only-ingest"]) {
  console.log("Local embedding (Universal Sentence Encoder lite, in a Worker, one core)");
  await benchLocalEmbedding();
}

const DATABASES = values.databases.split(",");
for (const name of DATABASES) {
  if (name !== "pglite" && name !== "postgres") {
    throw new Error(`--databases: expected pglite or postgres, not ${name}`);
  }
}
for (const size of SIZES) {
  if (DATABASES.includes("postgres") && Deno.env.get("TEST_DATABASE_URL")) {
    await benchSearch(log, { kind: "postgres", size, runs: RUNS, targets: {} });
  }
  if (DATABASES.includes("pglite")) {
    await benchSearch(log, { kind: "pglite", size, runs: RUNS, targets: {} });
  }
}

if (!values["skip-ingest"]) {
  await measureIngestionUnderEmbedding({
    rounds: Number(values.rounds),
    niceness: NICENESS,
    threads: THREADS,
  });
}

async function benchLocalEmbedding(): Promise<void> {
  const provider = new LocalProvider({ niceness: NICENESS });
  try {
    const events = realisticEvents(0, 128).map((e) => EventBatch.parse({ events: [e] }).events[0]);
    await provider.embed(events.slice(0, 4).map((e) => embeddingText(e)));
    // The local model's time grows with the text: the description's share is what a change of
    // the embedded text (server/embeddings/embedding-text.ts) trades against the drain.
    for (const descriptionChars of [EVENT_TEXT.descriptionChars, 200, 300]) {
      const texts = events.map((e) => embeddingText(e, { ...EVENT_TEXT, descriptionChars }));
      const cpu = process.cpuUsage();
      const t = performance.now();
      for (let i = 0; i < texts.length; i += 32) await provider.embed(texts.slice(i, i + 32));
      const perSecond = texts.length / ((performance.now() - t) / 1000);
      const used = process.cpuUsage(cpu);
      const perCpuSecond = texts.length / ((used.user + used.system) / 1e6);
      const avgChars = texts.reduce((s, x) => s + x.length, 0) / texts.length;
      console.log(
        `  event texts, description cut at ${descriptionChars} (avg ${
          avgChars.toFixed(0)
        } chars): ` +
          `${fmt(perSecond)} /s, ${fmt(perCpuSecond)} per CPU second (load ` +
          `${Deno.loadavg()[0].toFixed(1)})`,
      );
    }
    const titles = events.map((e) => e.title);
    let t = performance.now();
    for (let i = 0; i < titles.length; i += 32) await provider.embed(titles.slice(i, i + 32));
    const titlesPerSecond = titles.length / ((performance.now() - t) / 1000);
    const single: number[] = [];
    for (const q of TEXT_QUERIES) {
      t = performance.now();
      await provider.embed([q], { priority: "query" });
      single.push(performance.now() - t);
    }
    console.log(`  titles:                          ${fmt(titlesPerSecond)} /s`);
    console.log(`  one search query: p50 ${fmt(percentile(single, 50))} ms`);
  } finally {
    await provider.close();
  }
}
