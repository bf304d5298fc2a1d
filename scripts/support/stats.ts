/** Small helpers for benchmark figures. */

/** The p-th percentile (0-100) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** Runs `jobs` with at most `concurrency` at a time, timing each; returns each job's ms. */
export async function runTimed(
  jobs: (() => Promise<void>)[],
  concurrency: number,
): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      const t = performance.now();
      await job();
      latencies.push(performance.now() - t);
    }
  }));
  return { latencies, wallMs: performance.now() - started };
}

/** A fixed-width number for tables. */
export function fmt(n: number, digits = 1): string {
  return n.toFixed(digits).padStart(9);
}
