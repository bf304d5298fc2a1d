/**
 * How fast federation's publisher looks at events after a large push: starts the service on a
 * database with a backlog of pending events (one `bench-text-search.ts --keep` leaves, for one)
 * and prints how many it looked at a second over --seconds, with no request to serve.
 *
 *   deno run -A scripts/bench-publisher.ts --database <URL or PGlite directory> [--seconds 60]
 */
import { parseArgs } from "node:util";
import { startService } from "../server/serve.ts";
import { configWith } from "../server/config.ts";
import { countPending } from "../server/db/federation-objects.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { database: { type: "string" }, seconds: { type: "string", default: "60" } },
});
if (values.database === undefined) {
  console.error("Give the database: --database <PostgreSQL URL or PGlite directory>");
  Deno.exit(2);
}
const url = values.database.startsWith("postgres") ? values.database : undefined;
const service = await startService(configWith({
  port: 0,
  host: "127.0.0.1",
  dataDir: url === undefined ? values.database : "",
  databaseUrl: url,
  trustProxy: false,
  logRequests: false,
  embeddingWorker: "external",
}));
try {
  const { sql } = service.deps.db;
  const before = await countPending(sql);
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, Number(values.seconds) * 1000));
  const after = await countPending(sql);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `pending events ${before} -> ${after} in ${seconds.toFixed(0)} s: ` +
      `${((before - after) / seconds).toFixed(0)} looked at a second ` +
      `(load average ${Deno.loadavg()[0].toFixed(1)})`,
  );
} finally {
  await service.shutdown();
}
