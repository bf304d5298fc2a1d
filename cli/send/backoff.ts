/** Waiting between attempts. */

/** Exponential backoff with jitter: between half and all of base * 2^attempt, capped. */
export function backoffMs(
  attempt: number,
  baseMs = 500,
  capMs = 30_000,
  random = Math.random,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * ceiling / 2);
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
