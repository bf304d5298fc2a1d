/** The arguments the server benchmarks share: `--size N` events seeded, `--runs N` timed runs. */
import { parseArgs } from "node:util";

/** The sizes asked for on the command line, or the defaults; `-h` prints `usage` and exits. */
export function sizeAndRuns(
  usage: string,
  defaults: { size: number; runs: number },
): { size: number; runs: number } {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      size: { type: "string", default: String(defaults.size) },
      runs: { type: "string", default: String(defaults.runs) },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    Deno.exit(0);
  }
  const size = Number(values.size);
  const runs = Number(values.runs);
  for (const [name, n] of [["--size", size], ["--runs", runs]] as const) {
    if (!Number.isInteger(n) || n < 1) {
      console.error(`${name} must be a positive whole number\n\n${usage}`);
      Deno.exit(2);
    }
  }
  return { size, runs };
}
