/**
 * Text search speed on PostgreSQL alone, for measuring a ranking change before and after
 * (scripts/bench-search.ts also seeds and times PGlite, which takes far longer at 100,000 events).
 * Same database, queries and figures as scripts/bench-search.ts (scripts/support/).
 *
 *   TEST_DATABASE_URL=... deno run -A scripts/eval-search-speed.ts [--size 100000] [--runs 300]
 */
import { parseArgs } from "node:util";
import { benchSearch } from "./support/bench-search-figures.ts";
import { FigureLog } from "./support/figures.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    size: { type: "string", default: "100000" },
    runs: { type: "string", default: "300" },
  },
});
if (!Deno.env.get("TEST_DATABASE_URL")) {
  throw new Error("Set TEST_DATABASE_URL to the PostgreSQL server to measure on.");
}
const size = Number(values.size);
const runs = Number(values.runs);
if (!Number.isInteger(size) || size <= 0 || !Number.isInteger(runs) || runs <= 0) {
  throw new Error("--size and --runs must be positive integers");
}
console.log(`load average at start: ${Deno.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
await benchSearch(new FigureLog(), { kind: "postgres", size, runs, targets: {} });
console.log(`load average at end: ${Deno.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
