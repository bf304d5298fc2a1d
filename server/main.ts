/** Entry point of the server: `deno task start`. */
import { loadConfig } from "./config.ts";
import { startService } from "./serve.ts";
import { runUntilSignal } from "./run-until-signal.ts";

await runUntilSignal(async () => {
  const config = loadConfig(Deno.env.toObject());
  const service = await startService(config);
  const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.dataDir}`;
  console.log(`Listening on ${service.url} with ${where}`);
  if (!config.adminApiKey) {
    console.log(
      "ADMIN_API_KEY is not set: operator endpoints are closed. Make a key with " +
        "`npm run -s new-key` and start with ADMIN_API_KEY=<key>.",
    );
  }
  return service.shutdown;
});
