/**
 * Duplicates evaluation over the real service: six public conference lists (conference-data,
 * python-deadlines, devopsdays.org, testingconferences.org, kotlinlang.org's events, react.dev's
 * conferences), each pushed with its own key, trusted and untrusted; the pairs the service groups
 * scored against tests/fixtures/duplicates/labels.json beside the plain reference matcher.
 * Figures go to docs/duplicates.md by hand.
 *
 *   deno run -A scripts/eval-duplicates.ts [--backend pglite|postgres] [--show] [--offline]
 *     [--perturb] [--vectors]
 *
 * --show lists each false merge and each missed pair; --offline scores the matcher in memory
 * (scripts/support/duplicate-offline.ts) instead of pushing to the service: seconds, not minutes;
 * --perturb (with --offline) scores again with one listing of each labelled pair and hard negative
 * changed (scripts/support/duplicate-perturb.ts); --vectors (with --offline) adds every listing's
 * vector from the local model, as trusted keys' listings have in AI search, and prints how alike
 * the vectors of the labelled pairs and the hard negatives are (scripts/support/duplicate-vectors.ts;
 * the vectors are cached in --vector-cache, several minutes to make).
 */
import { parseArgs } from "node:util";
import { duplicateSources } from "./support/duplicate-sources.ts";
import {
  type Labels,
  readLabels,
  referencePairs,
  score,
  type Scores,
  servicePairs,
} from "./support/duplicate-eval.ts";
import { startTestApp, type TestServer } from "../dev-support/test-server.ts";
import { EmbeddingWorker } from "../server/embeddings/worker.ts";
import { detectEmbedded } from "../server/duplicates/detect-duplicates.ts";
import { offlinePairs } from "./support/duplicate-offline.ts";
import { PERTURBATIONS, perturbSources } from "./support/duplicate-perturb.ts";
import { listingVectors } from "./support/duplicate-vectors.ts";
import { vectorSeparation } from "./support/duplicate-vector-report.ts";

// The worker's batch with the local model.
const BATCH_EMBEDDED = 32;

const { values } = parseArgs({
  args: Deno.args,
  options: {
    backend: { type: "string", default: "pglite" },
    show: { type: "boolean" },
    offline: { type: "boolean" },
    perturb: { type: "boolean" },
    vectors: { type: "boolean" },
    "vector-cache": {
      type: "string",
      default: `${Deno.env.get("TMPDIR") ?? "/tmp"}/eval-duplicates-vectors.json`,
    },
    help: { type: "boolean" },
  },
});
if (values.help) {
  console.log(
    "deno run -A scripts/eval-duplicates.ts [--backend pglite|postgres] [--show] [--offline]\n" +
      "  --show     list the false merges and the missed pairs\n" +
      "  --offline  score the matcher in memory instead of over the service\n" +
      "  --perturb  with --offline: score again with one listing of each pair changed\n" +
      "  --vectors  with --offline: the local model's vectors too, as trusted keys have them\n" +
      "  --vector-cache FILE  where the vectors are kept between runs",
  );
  Deno.exit(0);
}
const backend = values.backend === "postgres" ? "postgres" : "pglite";
const sources = await duplicateSources();
const events = sources.flatMap((s) => s.events);
const labels = await readLabels(events);
const title = new Map(
  events.map((e) => [e.external_id, `${e.title} (${e.starts_at.slice(0, 10)}, ${e.city ?? "-"})`]),
);

const referenced = referencePairs(events);
// The pairs a person had to read to decide: those the plain reference matcher does not find.
const readPairs = [...labels.positives].filter((k) => !referenced.has(k));

function row(name: string, s: Scores): string {
  const f = (x: number) => x.toFixed(3);
  const read = readPairs.filter((k) => !s.missed.includes(k)).length;
  return `| ${name} | ${s.predicted} | ${f(s.precision)} | ${f(s.recall)} | ${f(s.f1)} | ` +
    `${s.hardMerged} of ${s.hardTotal} | ${read} of ${readPairs.length} |`;
}

function show(name: string, s: Scores, l: Labels): void {
  if (!values.show) return;
  const pretty = (k: string) => k.split("|").map((id) => title.get(id) ?? id).join("  <->  ");
  for (const k of s.falsePositives) {
    console.log(`${name} false: ${pretty(k)} [${l.hardNegatives.get(k) ?? "negative"}]`);
  }
  for (const k of s.missed) console.log(`${name} missed: ${pretty(k)}`);
}

console.log(
  `${events.length} events (${sources.map((s) => `${s.name} ${s.events.length}`).join(", ")}), ` +
    `${labels.positives.size} labelled pairs, ${labels.hardNegatives.size} hard negatives; ${backend}`,
);
const reference = score(referenced, labels);
show("reference", reference, labels);
const lines = [
  "| matcher | pairs grouped | precision | recall | F1 | hard negatives merged | read pairs found |",
  "| --- | --- | --- | --- | --- | --- | --- |",
  row("plain reference", reference),
];
if (values.offline) {
  const vectors = values.vectors
    ? await listingVectors(events, { cacheFile: values["vector-cache"], log: console.log })
    : undefined;
  if (vectors) console.log(vectorSeparation({ sources, labels, vectors }));
  const started = performance.now();
  const s = score(offlinePairs(sources), labels);
  show("offline", s, labels);
  lines.push(row("matcher, in memory", s));
  console.log(`matched in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (vectors) {
    const v = score(offlinePairs(sources, { vectors }), labels);
    show("vectors", v, labels);
    lines.push(row("matcher and vectors, in memory", v));
  }
  for (const how of values.perturb ? PERTURBATIONS : []) {
    const changed = perturbSources(sources, { labels, how });
    const p = score(offlinePairs(changed.sources), labels);
    show(how, p, labels);
    lines.push(row(`matcher, ${how} (${changed.changed} listings changed)`, p));
    if (!vectors) continue;
    // The changed listings' vectors are their own texts' (a new title is embedded again).
    const changedEvents = changed.sources.flatMap((x) => x.events);
    const moved = await listingVectors(changedEvents, {
      cacheFile: values["vector-cache"],
      log: console.log,
    });
    const pv = score(offlinePairs(changed.sources, { vectors: moved }), labels);
    show(`${how} vectors`, pv, labels);
    lines.push(row(`matcher and vectors, ${how}`, pv));
  }
}
// Without an embedding worker detection reads no vectors, so trusted keys differ only in which
// listing is canonical: the two runs check that the figures do not move. With --vectors a third
// run drains the embedding worker (the local model) after the pushes: each embedded batch is
// detected again with its vectors, as a server's worker does.
const runs = [
  { name: "trusted keys", trusted: true, embed: false },
  { name: "untrusted keys (no vectors)", trusted: false, embed: false },
  ...(values.vectors ? [{ name: "trusted keys, vectors", trusted: true, embed: true }] : []),
];
for (const run of values.offline ? [] : runs) {
  const server = await startTestApp(backend, { embeddingWorker: "external" });
  try {
    const started = performance.now();
    const afterPush = run.embed ? () => drainEmbeddings(server) : undefined;
    const s = score(
      await servicePairs(server, { sources, trusted: run.trusted, afterPush }),
      labels,
    );
    show(run.name, s, labels);
    lines.push(row(`service, ${run.name}`, s));
    console.log(`pushed and read in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await server.close();
  }
}

/** Embeds every listing that belongs in AI search, with the worker a server runs. */
async function drainEmbeddings(server: TestServer): Promise<void> {
  const { ai, db } = server.service.deps;
  const status = await ai.availability.status();
  if (!status.available) throw new Error(`Cannot embed: ${status.reason}`);
  const worker = new EmbeddingWorker({
    sql: db.sql,
    provider: ai.provider,
    store: ai.availability,
  });
  const started = performance.now();
  const embedded = await worker.runUntilIdle();
  console.log(`embedded ${embedded} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // What the worker's detection costs a batch (its keys, candidates by keys and by vectors,
  // links and groups), timed again on batches of the stored events.
  const ids = (await db.sql<{ id: string }[]>`SELECT id FROM events ORDER BY id`).map((r) => r.id);
  const times: number[] = [];
  for (let i = 0; i < ids.length && times.length < 40; i += Math.floor(ids.length / 40)) {
    const t = performance.now();
    await detectEmbedded(db.sql, ids.slice(i, i + BATCH_EMBEDDED));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(
    `detection after embedding, ${BATCH_EMBEDDED} events: median ${
      times[times.length >> 1].toFixed(1)
    } ms, max ${times[times.length - 1].toFixed(1)} ms (${times.length} batches, load ${
      Deno.loadavg().map((x) => x.toFixed(1)).join(" ")
    })`,
  );
}
console.log(`\n${readPairs.length} labelled pairs the reference matcher misses.\n`);
console.log(lines.join("\n"));
