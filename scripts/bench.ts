/**
 * Every benchmark of the project in one command, at the sizes of issue 11, on PGlite and (when
 * TEST_DATABASE_URL is set) on PostgreSQL; writes docs/benchmarks.md: the machine, the date,
 * every figure beside its target and the machine's load when it was taken, and the ratios that
 * hold across machines (HTTP/raw, busy/idle, MCP/HTTP). Sizes above 100,000 run on PostgreSQL
 * only (seeding PGlite with a million events takes the better part of an hour).
 *
 *   deno run -A scripts/bench.ts [--sizes 100000,1000000] [--runs 300]
 *     [--only search,ingest,embedding,cli,pages,mcp,front,load,search-api,alerts]
 *     [--out docs/benchmarks.md]
 *
 * The CLI, page, MCP, TCP front, load and deployment-like text search benchmarks are scripts of
 * their own (scripts/bench-cli.ts, scripts/bench-pages.ts, scripts/bench-mcp.ts,
 * scripts/bench-front.ts, scripts/bench-load.ts, scripts/bench-text-search.ts: events pushed
 * through the API and searched at once; scripts/bench-alerts.ts: push time with 10,000 saved
 * searches); each that exists runs as a child process and its output goes into the
 * document as printed. The load benchmark runs on PostgreSQL only, so only when TEST_DATABASE_URL
 * is set.
 */
import { parseArgs } from "node:util";
import { FigureLog, loadAverage, type Target } from "./support/figures.ts";
import { benchSearch } from "./support/bench-search-figures.ts";
import { benchIngest } from "./support/bench-ingest-figures.ts";
import { benchLocalModel, benchOpenAIDrain } from "./support/bench-embedding-figures.ts";
import { measureIngestionUnderEmbedding } from "./support/bench-ingest-busy.ts";
import { machineDescription, renderBenchmarks, type ScriptOutput } from "./support/bench-report.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "100000" },
    runs: { type: "string", default: "300" },
    only: {
      type: "string",
      default: "search,ingest,embedding,cli,pages,mcp,front,load,search-api,alerts",
    },
    out: { type: "string", default: "docs/benchmarks.md" },
  },
});
const SIZES = values.sizes.split(",").map(Number);
const RUNS = Number(values.runs);
const ONLY = new Set(values.only.split(","));
const POSTGRES = Deno.env.get("TEST_DATABASE_URL") !== undefined;
const ROOT = new URL("../", import.meta.url);

const at = (value: number): Target => ({ kind: "max", value });
const least = (value: number): Target => ({ kind: "min", value });

const log = new FigureLog();
const scripts: ScriptOutput[] = [];
const failures: string[] = [];
const started = new Date();
const loadAtStart = loadAverage();

if (ONLY.has("search")) {
  for (const size of SIZES) {
    if (POSTGRES) {
      const limit = size > 100_000 ? 50 : 30;
      await attempt("benchSearch", () =>
        benchSearch(log, {
          kind: "postgres",
          size,
          runs: RUNS,
          targets: {
            text: at(limit),
            "list-q": at(limit),
            "http-text": at(limit),
            "http-list-q": at(limit),
            "http-text-all": at(limit),
          },
        }));
    }
    if (size <= 100_000) {
      await attempt("benchSearch", () =>
        benchSearch(log, {
          kind: "pglite",
          size,
          runs: RUNS,
          targets: {
            text: at(30),
            "list-q": at(30),
            "http-text": at(30),
            "http-list-q": at(30),
            "http-text-all": at(30),
            semantic: at(30),
            "semantic-strict": at(30),
            hybrid: at(60),
          },
        }));
    }
  }
}

if (ONLY.has("ingest")) {
  for (const kind of POSTGRES ? ["postgres", "pglite"] as const : ["pglite"] as const) {
    await attempt("benchIngest", () =>
      benchIngest(log, {
        kind,
        batches: 60,
        clients: 4,
        targets: kind === "postgres" ? { oneClientP95: at(50), httpOverRaw: least(80) } : {},
      }));
  }
}

if (ONLY.has("embedding")) {
  await attempt(
    "benchOpenAIDrain",
    () => benchOpenAIDrain(log, { events: 5000, dimensions: 1536, target: least(500) }),
  );
  await attempt(
    "benchOpenAIDrain",
    () => benchOpenAIDrain(log, { events: 5000, dimensions: 512, target: least(500) }),
  );
  await attempt("benchLocalModel", () => benchLocalModel(log));
  await attempt("measureIngestionUnderEmbedding", () =>
    measureIngestionUnderEmbedding({
      log,
      targets: { drainIdle: least(30), drainBusy: least(10) },
    }));
}

for (
  const [name, script, args] of [
    ["cli", "scripts/bench-cli.ts", []],
    ["pages", "scripts/bench-pages.ts", []],
    ["mcp", "scripts/bench-mcp.ts", ["--size", String(SIZES[0])]],
    ["front", "scripts/bench-front.ts", []],
    ["load", "scripts/bench-load.ts", ["--size", String(SIZES[0])]],
    ["search-api", "scripts/bench-text-search.ts", ["--size", String(SIZES[0])]],
    ["alerts", "scripts/bench-alerts.ts", ["--batches", "15"]],
  ] as const
) {
  if (!ONLY.has(name)) continue;
  if (name === "load" && !POSTGRES) {
    console.log(`\n(${script} needs TEST_DATABASE_URL: skipped)`);
    continue;
  }
  const output = await runScript(script, [...args]);
  if (output) scripts.push(output);
}

const document = renderBenchmarks({
  machine: await machineDescription(),
  started,
  finished: new Date(),
  command: `deno run -A scripts/bench.ts ${Deno.args.join(" ")}`.trim(),
  loadAtStart,
  postgres: POSTGRES,
  figures: log.figures,
  scripts,
  failures,
});
const out = new URL(values.out, ROOT);
await Deno.writeTextFile(out, mergeWithNotes(await readOrEmpty(out), document));
// The repository's formatter owns Markdown layout (table padding): keep `deno fmt --check` green.
await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", out.pathname] }).output();
console.log(`\nWrote ${out.pathname}`);

/** Runs one benchmark; a failure is reported (and written into the document), not fatal. */
async function attempt(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    console.error(`${name} failed:`, err);
    failures.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Runs a benchmark script of its own if it exists; its output, or null when it does not. */
async function runScript(path: string, args: string[]): Promise<ScriptOutput | null> {
  const url = new URL(path, ROOT);
  try {
    await Deno.stat(url);
  } catch {
    console.log(`\n(${path} does not exist yet: skipped)`);
    return null;
  }
  console.log(`\n${path}`);
  const loadBefore = loadAverage();
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", url.pathname, ...args],
    cwd: ROOT.pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(result.stdout);
  console.log(stdout);
  if (!result.success) console.error(new TextDecoder().decode(result.stderr));
  return { script: path, args, stdout, ok: result.success, load: [loadBefore, loadAverage()] };
}

async function readOrEmpty(url: URL): Promise<string> {
  try {
    return await Deno.readTextFile(url);
  } catch {
    return "";
  }
}

/**
 * The generated part replaces the one between the markers; what is written by hand after the
 * end marker (the closing notes) is kept.
 */
function mergeWithNotes(previous: string, generated: string): string {
  const end = "<!-- bench:end -->";
  const at = previous.indexOf(end);
  const notes = at === -1 ? "" : previous.slice(at + end.length);
  return `${generated}${end}${notes || "\n"}`;
}
