/**
 * Ingestion benchmark: 100-event batches through the real HTTP server (four keys) against the
 * raw database upsert of the same rows, on PostgreSQL (when TEST_DATABASE_URL is set) and PGlite;
 * one client's batch latency, and throughput at --clients clients.
 *
 *   TEST_DATABASE_URL=postgres://... deno run -A scripts/bench-ingest.ts [--batches 60] [--clients 4]
 */
import { parseArgs } from "node:util";
import { testBackends } from "../dev-support/databases.ts";
import { benchIngest } from "./support/bench-ingest-figures.ts";
import { FigureLog } from "./support/figures.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    batches: { type: "string", default: "60" },
    clients: { type: "string", default: "4" },
  },
});
const log = new FigureLog();
for (const kind of testBackends().reverse()) {
  await benchIngest(log, {
    kind,
    batches: Number(values.batches),
    clients: Number(values.clients),
    targets: kind === "postgres"
      ? { oneClientP95: { kind: "max", value: 50 }, httpOverRaw: { kind: "min", value: 80 } }
      : {},
  });
}
