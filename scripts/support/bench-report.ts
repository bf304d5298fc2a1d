/** docs/benchmarks.md from the figures of scripts/bench.ts: machine, tables, ratios. */
import postgres from "postgres";
import { type Figure, formatTarget, formatValue, meets } from "./figures.ts";

/** A benchmark script run as a child process, and what it printed. */
export interface ScriptOutput {
  script: string;
  args: string[];
  stdout: string;
  ok: boolean;
  /** The one-minute load average before and after. */
  load: [number, number];
}

export interface BenchReport {
  machine: string[];
  started: Date;
  finished: Date;
  command: string;
  loadAtStart: number;
  postgres: boolean;
  figures: Figure[];
  scripts: ScriptOutput[];
  /** Benchmarks that failed, with why. */
  failures: string[];
}

/** What the figures were measured on. */
export async function machineDescription(): Promise<string[]> {
  const cpu = (await readOrNull("/proc/cpuinfo"))?.match(/model name\s*:\s*(.+)/)?.[1] ?? "unknown";
  const memory = Deno.systemMemoryInfo();
  const lines = [
    `CPU: ${cpu}, ${navigator.hardwareConcurrency} cores; memory ${
      (memory.total / 2 ** 30).toFixed(0)
    } GiB`,
    `OS: ${Deno.build.os} ${Deno.osRelease()} (${Deno.build.arch}); Deno ${Deno.version.deno}`,
  ];
  const url = Deno.env.get("TEST_DATABASE_URL");
  if (url) {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const [{ version, buffers }] = await sql<{ version: string; buffers: string }[]>`
        SELECT current_setting('server_version') AS version,
               current_setting('shared_buffers') AS buffers`;
      lines.push(`PostgreSQL ${version} on this machine (shared_buffers ${buffers}), untuned`);
    } finally {
      await sql.end();
    }
  }
  const pkg = JSON.parse(await Deno.readTextFile(new URL("../../package.json", import.meta.url)));
  lines.push(`PGlite ${pkg.dependencies["@electric-sql/pglite"]} (PostgreSQL 18 in WebAssembly)`);
  return lines;
}

/** The generated part of docs/benchmarks.md, ending just before the end marker. */
export function renderBenchmarks(r: BenchReport): string {
  const out: string[] = [
    "# Benchmarks",
    "",
    "<!-- bench:begin: written by scripts/bench.ts; edit the notes after bench:end instead -->",
    "",
    `Measured ${r.started.toISOString().slice(0, 16).replace("T", " ")} to ` +
    `${r.finished.toISOString().slice(11, 16)} UTC with \`${r.command}\`` +
    (r.postgres ? "" : " (PGlite only: TEST_DATABASE_URL was not set)") + ".",
    "",
    ...r.machine.map((line) => `- ${line}`),
    "",
    "The machine is shared: **load** is the one-minute load average when a figure was taken " +
    `(${navigator.hardwareConcurrency} cores; load at start ${r.loadAtStart.toFixed(2)}). A ` +
    "figure taken at a load well above the core count measures the neighbours as much as this " +
    "code; the ratios below move less with load than the absolute figures.",
    "",
  ];
  for (const section of [...new Set(r.figures.map((f) => f.section))]) {
    out.push(`## ${section}`, "", "| Figure | Measured | Target | Met | Load | Note |");
    out.push("| --- | ---: | ---: | :-: | ---: | --- |");
    for (const f of r.figures.filter((x) => x.section === section)) {
      const met = meets(f);
      out.push(
        `| ${f.name} | ${formatValue(f.value, f.unit)} | ${formatTarget(f.target, f.unit)} | ` +
          `${met === null ? "" : met ? "yes" : "**no**"} | ${f.load.toFixed(2)} | ${
            f.note ?? ""
          } |`,
      );
    }
    out.push("");
  }
  out.push(...ratios(r), "");
  if (r.failures.length > 0) {
    out.push("## Failed", "", ...r.failures.map((f) => `- ${f}`), "");
  }
  for (const s of r.scripts) {
    out.push(
      `## ${s.script}${s.args.length ? ` ${s.args.join(" ")}` : ""}`,
      "",
      `Load ${s.load[0].toFixed(2)} before, ${s.load[1].toFixed(2)} after` +
        (s.ok ? "." : "; **the script failed**."),
      "",
      "```text",
      s.stdout.trim(),
      "```",
      "",
    );
  }
  return out.join("\n");
}

/** Ratios of figures taken side by side: they carry across machines better than milliseconds. */
function ratios(r: BenchReport): string[] {
  const lines = ["## Ratios", ""];
  const find = (section: string, name: string) =>
    r.figures.find((f) => f.section.includes(section) && f.name.startsWith(name));
  for (const f of r.figures.filter((x) => x.name.startsWith("HTTP/raw"))) {
    lines.push(`- HTTP/raw upsert throughput (${f.section}): ${formatValue(f.value, f.unit)}`);
  }
  for (const f of r.figures.filter((x) => x.name.includes("busy / idle"))) {
    lines.push(
      `- ingestion p95 with the embedding worker busy / idle: ${formatValue(f.value, "x")}`,
    );
  }
  const idle = find("Embedding", "local-model drain, no requests");
  const busy = find("Embedding", "local-model drain, during");
  if (idle && busy) {
    lines.push(`- local-model drain busy / idle: ${(busy.value / idle.value).toFixed(2)}`);
  }
  for (
    const f of r.figures.filter((x) => x.name.startsWith("GET /api/v1/search?mode=text p95, 16"))
  ) {
    const inProcess = find(f.section, "text search p95");
    if (inProcess) {
      lines.push(
        `- text search through HTTP / in-process, p95 (${f.section}): ` +
          `${(f.value / inProcess.value).toFixed(2)}`,
      );
    }
  }
  const mcp = r.scripts.find((s) => s.script.endsWith("bench-mcp.ts"));
  for (const [name, ratio] of mcp ? mcpOverHttp(mcp.stdout) : []) {
    lines.push(`- ${name} / HTTP text search, p95: ${ratio.toFixed(2)}`);
  }
  return lines;
}

/** From bench-mcp's lines "<name> p50 X ms p95 Y ms": each MCP text search over the API's. */
function mcpOverHttp(stdout: string): [string, number][] {
  const p95 = new Map<string, number>();
  for (const line of stdout.split("\n")) {
    const m = line.match(/^\s*(.+?)\s+p50\s+[\d.]+ ms\s+p95\s+([\d.]+) ms/);
    if (m) p95.set(m[1], Number(m[2]));
  }
  const names = [...p95.keys()];
  const api = names.find((n) => n.startsWith("text") && n.includes("/api/v1/search"));
  if (!api) return [];
  return names.filter((n) => n.startsWith("text") && n.includes("MCP"))
    .map((n) => [n.replace(/^text\s+/, ""), p95.get(n)! / p95.get(api)!]);
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}
