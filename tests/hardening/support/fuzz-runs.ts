/** How many generated cases each property runs: a few hundred by default, FUZZ_RUNS for long runs. */

/** `base` cases, or FUZZ_RUNS when set (scaled by `share` for properties that cost more each). */
export function fuzzRuns(base: number, share = 1): number {
  const raw = Deno.env.get("FUZZ_RUNS");
  if (!raw) return base;
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1) {
    throw new Error(`FUZZ_RUNS must be a positive whole number, got "${raw}"`);
  }
  return Math.max(1, Math.round(runs * share));
}

/** The seed of a failing run is printed by fast-check; FUZZ_SEED replays it. */
export function fuzzSeed(): number | undefined {
  const raw = Deno.env.get("FUZZ_SEED");
  return raw ? Number(raw) : undefined;
}
