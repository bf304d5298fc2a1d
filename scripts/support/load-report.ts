/** What scripts/bench-load.ts prints, and whether the run passed. */
import { fmt } from "./stats.ts";
import type { KindSummary } from "./load-recorder.ts";
import { BATCH_MIX, type PushTally } from "./load-pushers.ts";
import { type HeapAfterGc, mib } from "./process-usage.ts";

/** Resource use at one moment of a run. */
export interface UsageSnapshot {
  rssBytes: number;
  serverCpuS: number;
  /** CPU seconds of each of the server's PostgreSQL backends, by process id. */
  backendCpuS: Map<number, number>;
  selfCpuS: number;
  load: number;
}

/** What a run measured. */
export interface LoadRun {
  summaries: KindSummary[];
  totalErrors: number;
  tally: PushTally;
  /** Events of the load keys in the database after the run. */
  stored: number;
  atStart: UsageSnapshot;
  afterWarmUp: UsageSnapshot;
  atEnd: UsageSnapshot;
  /** The largest resident memory sampled after warm-up. */
  maxRssBytes: number;
  /** Resident memory every 10 s from the end of warm-up on. */
  rssTrail: number[];
  /**
   * In each 10 s from the end of warm-up on, after the full collections (MiB; null where none
   * ran): the least heap in use (what the server holds) and the most V8 kept reserved.
   */
  heapTrail: (HeapAfterGc | null)[];
}

/** How the run was set up. */
export interface LoadSettings {
  durationS: number;
  warmUpS: number;
  keys: number;
  visitors: number;
  apiClients: number;
  mcpClients: number;
  size: number;
  thinkMs: number;
  timeoutMs: number;
  memoryBoundPercent: number;
  seedMs: number;
  postgresVersion: string;
}

/** Prints the report; the exit code: 0 when no request failed and every check held. */
export function printLoadReport(run: LoadRun, s: LoadSettings): number {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  console.log(
    `PostgreSQL ${s.postgresVersion}, ${s.size} events seeded (in ${
      (s.seedMs / 1000).toFixed(0)
    } ` +
      `s); ${s.keys} keys pushing 100-event batches back to back (${pct(BATCH_MIX.new)} new, ` +
      `${pct(BATCH_MIX.unchanged)} re-sent as first pushed, ${pct(BATCH_MIX.changed)} re-sent ` +
      `changed), ${s.visitors} site visitors, ${s.apiClients} API clients and ${s.mcpClients} ` +
      `MCP client(s) pausing ${s.thinkMs} ms on average between requests; warm-up ${s.warmUpS} ` +
      `s, measured ${s.durationS} s; request timeout ${s.timeoutMs / 1000} s; ` +
      `${navigator.hardwareConcurrency} cores`,
  );
  console.log(
    `  ${"kind".padEnd(28)}${"count".padStart(7)}${"per s".padStart(9)}` +
      `${"p50 ms".padStart(9)}${"p95 ms".padStart(9)}${"p99 ms".padStart(9)}` +
      `${"errors".padStart(8)}${"429".padStart(6)}`,
  );
  for (const k of run.summaries) {
    console.log(
      `  ${k.kind.padEnd(28)}${String(k.count).padStart(7)}${fmt(k.perSecond).padStart(9)}` +
        `${fmt(k.p50)}${fmt(k.p95)}${fmt(k.p99)}${String(k.errors).padStart(8)}` +
        `${String(k.rateLimited).padStart(6)}`,
    );
  }
  console.log("  answers by status, whole run:");
  for (const k of run.summaries) console.log(`    ${k.kind}: ${k.byStatus || "none"}`);
  const t = run.tally;
  console.log(
    `  pushed: ${(t.measuredEvents / s.durationS).toFixed(0)} events/s ` +
      `(${t.inserted} inserted, ${t.updated} updated in the measured window)`,
  );

  const warm = run.afterWarmUp.rssBytes;
  const bound = warm * (1 + s.memoryBoundPercent / 100);
  const memoryHeld = run.atEnd.rssBytes <= bound;
  console.log(
    `  server memory (VmRSS): ${mib(run.atStart.rssBytes)} before the load, ${mib(warm)} after ` +
      `warm-up, at most ${mib(run.maxRssBytes)} while measured, ${mib(run.atEnd.rssBytes)} at ` +
      `the end; bound: end <= after warm-up + ${s.memoryBoundPercent}% = ${mib(bound)}: ` +
      (memoryHeld ? "held" : "BROKEN"),
  );
  console.log(
    `  server memory every 10 s while measured (MiB): ` +
      run.rssTrail.map((b) => (b / 2 ** 20).toFixed(0)).join(", "),
  );
  console.log(
    `  server heap after full collections every 10 s while measured, in use / reserved (MiB): ` +
      run.heapTrail.map((h) => h === null ? "-" : `${h.live.toFixed(0)}/${h.reserved.toFixed(0)}`)
        .join(", "),
  );
  const serverCpu = run.atEnd.serverCpuS - run.afterWarmUp.serverCpuS;
  console.log(
    `  CPU time while measured: server ${serverCpu.toFixed(1)} s ` +
      `(${pct(serverCpu / s.durationS)} of one core), its PostgreSQL backends ` +
      `${backendCpu(run.afterWarmUp, run.atEnd).toFixed(1)} s, this script ` +
      `${(run.atEnd.selfCpuS - run.afterWarmUp.selfCpuS).toFixed(1)} s`,
  );
  console.log(
    `  load average: ${run.atStart.load.toFixed(2)} at the start, ` +
      `${run.afterWarmUp.load.toFixed(2)} after warm-up, ${run.atEnd.load.toFixed(2)} at the end`,
  );
  const storedHeld = run.stored === t.storedNew;
  console.log(
    `  stored: ${run.stored} events of the load keys; ${t.storedNew} acknowledged as new: ` +
      (storedHeld ? "all there" : "MISMATCH"),
  );
  const failures = [
    ...(run.totalErrors > 0 ? [`${run.totalErrors} requests failed`] : []),
    ...(memoryHeld ? [] : ["the memory bound broke"]),
    ...(storedHeld ? [] : ["stored events differ from acknowledged ones"]),
  ];
  console.log(`  result: ${failures.length === 0 ? "passed" : `FAILED: ${failures.join("; ")}`}`);
  return failures.length === 0 ? 0 : 1;
}

/**
 * CPU seconds the backends spent between two snapshots: a backend that began after the first
 * counts from zero; one that ended before the second is missing (the server keeps its pool).
 */
function backendCpu(from: UsageSnapshot, to: UsageSnapshot): number {
  let sum = 0;
  for (const [pid, seconds] of to.backendCpuS) sum += seconds - (from.backendCpuS.get(pid) ?? 0);
  return sum;
}
