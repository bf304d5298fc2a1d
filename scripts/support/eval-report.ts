/**
 * docs/search-quality.json keeps every recorded evaluation run by label; docs/search-quality.md
 * is rewritten from it, so each change's figures stay beside the ones before it.
 */
import type { Measures } from "./eval-metrics.ts";

const JSON_FILE = new URL("../../docs/search-quality.json", import.meta.url);
const MD_FILE = new URL("../../docs/search-quality.md", import.meta.url);

/** One corpus's figures in one run. */
export interface CorpusFigures {
  source: string;
  events: number;
  queries: number;
  /** Text queries answered with fewer than 10 results. */
  text_short_pages: number;
  embed_seconds: number;
  /** kind -> mode -> means over the kind's queries. */
  results: Record<string, Record<string, Measures & { n: number }>>;
}

interface Run {
  label: string;
  at: string;
  load_average: number;
  corpora: Record<string, CorpusFigures>;
}

/** Adds (or updates) the run `label` and rewrites the report. */
export async function recordRun(label: string, corpora: Record<string, CorpusFigures>) {
  let runs: Run[] = [];
  try {
    runs = JSON.parse(await Deno.readTextFile(JSON_FILE)).runs;
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const existing = runs.find((r) => r.label === label);
  const at = new Date().toISOString().slice(0, 16).replace("T", " ");
  const load = Deno.loadavg()[0];
  if (existing) {
    Object.assign(existing.corpora, corpora);
    Object.assign(existing, { at, load_average: load });
  } else {
    runs.push({ label, at, load_average: load, corpora });
  }
  await Deno.writeTextFile(JSON_FILE, JSON.stringify({ runs }, null, 1) + "\n");
  await Deno.writeTextFile(MD_FILE, render(runs));
}

function render(runs: Run[]): string {
  const corpora = [...new Set(runs.flatMap((r) => Object.keys(r.corpora)))];
  const lines = [
    "# Search quality",
    "",
    "Written by `deno run -A scripts/eval-search.ts --record <label>` from",
    "`docs/search-quality.json`; what the evaluation does and why is in",
    "[search.md](search.md#how-search-quality-is-measured). Figures are means over the queries of",
    "each kind: precision@10 (out of 10, or of the relevant events when fewer exist), nDCG@10 and",
    "recall@10. `bm25` is a plain BM25 over title, topics and description computed by the script.",
    "Runs are listed oldest first. Rows `hybrid:<name>` and `semantic:<name>` are variants measured",
    "with --fusions; [search.md](search.md#figures-issue-16) says which the code uses.",
    "",
  ];
  for (const corpus of corpora) {
    const first = runs.find((r) => r.corpora[corpus])!.corpora[corpus];
    lines.push(`## ${corpus}`, "", `${first.source}; ${first.events} events.`, "");
    const withCorpus = runs.filter((r) => r.corpora[corpus]);
    lines.push(
      `| kind | mode | ${withCorpus.map((r) => `${r.label}: P@10 / nDCG@10 / R@10`).join(" | ")} |`,
      `|---|---|${withCorpus.map(() => "---").join("|")}|`,
    );
    const kinds = Object.keys(withCorpus.at(-1)!.corpora[corpus].results);
    // Variants (hybrid:<fusion>, semantic:<query wording>) measured by --fusions, after the modes.
    const variants = [
      ...new Set(withCorpus.flatMap((r) => Object.keys(r.corpora[corpus].results.all ?? {}))),
    ].filter((m) => m.includes(":")).sort();
    for (const kind of kinds) {
      for (const mode of ["hybrid", "text", "semantic", "bm25", ...variants]) {
        const cells = withCorpus.map((r) => {
          const m = r.corpora[corpus].results[kind]?.[mode];
          return m ? `${f(m.precision)} / ${f(m.ndcg)} / ${f(m.recall)}` : "-";
        });
        lines.push(`| ${kind} | ${mode} | ${cells.join(" | ")} |`);
      }
    }
    lines.push(
      "",
      `| run | recorded (UTC) | load average | queries | text answered < 10 | embedding s |`,
      "|---|---|---|---|---|---|",
      ...withCorpus.map((r) => {
        const c = r.corpora[corpus];
        return `| ${r.label} | ${r.at} | ${r.load_average.toFixed(1)} | ${c.queries} | ` +
          `${c.text_short_pages} | ${c.embed_seconds} |`;
      }),
      "",
    );
  }
  return lines.join("\n");
}

function f(x: number): string {
  return x.toFixed(3);
}
