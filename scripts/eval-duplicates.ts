/**
 * Duplicates evaluation over the real service: three public conference lists (conference-data,
 * python-deadlines, devopsdays.org), each pushed with its own key, trusted and untrusted; the
 * pairs the service groups scored against tests/fixtures/duplicates/labels.json beside the plain
 * reference matcher. Figures go to docs/duplicates.md by hand.
 *
 *   deno run -A scripts/eval-duplicates.ts [--backend pglite|postgres] [--show]
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
import { startTestApp } from "../dev-support/test-server.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { backend: { type: "string", default: "pglite" }, show: { type: "boolean" } },
});
const backend = values.backend === "postgres" ? "postgres" : "pglite";
const sources = await duplicateSources();
const events = sources.flatMap((s) => s.events);
const labels = await readLabels(events);
const title = new Map(
  events.map((e) => [e.external_id, `${e.title} (${e.starts_at.slice(0, 10)}, ${e.city ?? "-"})`]),
);

function row(name: string, s: Scores): string {
  const f = (x: number) => x.toFixed(3);
  return `| ${name} | ${s.predicted} | ${f(s.precision)} | ${f(s.recall)} | ${f(s.f1)} | ` +
    `${s.hardMerged} of ${s.hardTotal} |`;
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
const reference = score(referencePairs(events), labels);
show("reference", reference, labels);
const lines = [
  "| matcher | pairs grouped | precision | recall | F1 | hard negatives merged |",
  "| --- | --- | --- | --- | --- | --- |",
  row("plain reference", reference),
];
for (const trusted of [true, false]) {
  // No embedding worker: detection reads no vectors, so trusted keys differ only in which
  // listing is canonical; the run checks that the figures do not move.
  const server = await startTestApp(backend, { embeddingWorker: "external" });
  try {
    const started = performance.now();
    const s = score(await servicePairs(server, { sources, trusted }), labels);
    show(trusted ? "trusted" : "untrusted", s, labels);
    lines.push(row(`service, ${trusted ? "trusted" : "untrusted"} keys`, s));
    console.log(`pushed and read in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await server.close();
  }
}
const hard = [...labels.positives].filter((k) => !referencePairs(events).has(k));
console.log(`\n${hard.length} labelled pairs the reference matcher misses.\n`);
console.log(lines.join("\n"));
