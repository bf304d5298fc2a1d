/** A process's memory and CPU time as Linux reports them in /proc, for benchmark reports. */

/** Resident memory (VmRSS) of process `pid`, in bytes. */
export async function residentBytes(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kib = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`Cannot read the memory of process ${pid}: no VmRSS`);
  return Number(kib) * 1024;
}

let ticksPerSecond: number | undefined;

/** User plus system CPU time of process `pid` so far, in seconds. */
export async function cpuSeconds(pid: number | "self"): Promise<number> {
  ticksPerSecond ??= await clockTicks();
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces: count fields from after its closing parenthesis,
  // where field 3 (state) is first; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

async function clockTicks(): Promise<number> {
  try {
    const out = await new Deno.Command("getconf", { args: ["CLK_TCK"] }).output();
    const n = Number(new TextDecoder().decode(out.stdout).trim());
    return n > 0 ? n : 100;
  } catch {
    return 100;
  }
}

/** Samples a process's resident memory every `everyMs` until stopped. */
export class MemorySampler {
  readonly samples: { atMs: number; bytes: number }[] = [];
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(pid: number, everyMs: number) {
    const started = performance.now();
    this.#timer = setInterval(() => {
      residentBytes(pid)
        .then((bytes) => this.samples.push({ atMs: performance.now() - started, bytes }))
        // The process has gone: the run's checks report that, not the sampler.
        .catch(() => {});
    }, everyMs);
  }

  /** The largest sample taken after `fromMs` (since the sampler started). */
  maxSince(fromMs: number): number {
    return Math.max(0, ...this.samples.filter((s) => s.atMs >= fromMs).map((s) => s.bytes));
  }

  /** The first sample at or after each of fromMs, fromMs + stepMs, ... */
  every(fromMs: number, stepMs: number): number[] {
    const picked: number[] = [];
    let next = fromMs;
    for (const s of this.samples) {
      if (s.atMs < next) continue;
      picked.push(s.bytes);
      while (next <= s.atMs) next += stepMs;
    }
    return picked;
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

/** A process's heap after full collections, in MiB: in use, and kept in reserve. */
export interface HeapAfterGc {
  live: number;
  reserved: number;
}

/**
 * The heap a process held (in use, and reserved) after each of its full collections, with when
 * (performance.now()), in MiB.
 */
export class FullGcTrail {
  readonly #samples: (HeapAfterGc & { at: number })[] = [];

  record(live: number, reserved: number): void {
    // A run of minutes sees hundreds; a bound all the same, as the output is another process's.
    if (this.#samples.length < 100_000) {
      this.#samples.push({ at: performance.now(), live, reserved });
    }
  }

  /**
   * In each `stepMs` from `from` until `until`: the least heap in use and the most reserved
   * after a full collection (null where none ran).
   */
  every(from: number, until: number, stepMs: number): (HeapAfterGc | null)[] {
    const steps: (HeapAfterGc | null)[] = [];
    for (let start = from; start < until; start += stepMs) {
      const inStep = this.#samples.filter((s) => s.at >= start && s.at < start + stepMs);
      steps.push(
        inStep.length === 0 ? null : {
          live: Math.min(...inStep.map((s) => s.live)),
          reserved: Math.max(...inStep.map((s) => s.reserved)),
        },
      );
    }
    return steps;
  }
}

/** Bytes as MiB with one decimal. */
export function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}
