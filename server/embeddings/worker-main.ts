/**
 * `deno task worker`: the embedding worker as its own process, for operators who scale out. Run
 * the servers with EMBEDDINGS_WORKER=external and one or more of these against the same
 * PostgreSQL; claims keep them from embedding the same event twice.
 */
import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/connect.ts";
import { migrate } from "../db/migrate.ts";
import { createEmbeddingProvider } from "./create-provider.ts";
import { listenForEmbeddingWork } from "./change-signals.ts";
import { AiSearch } from "../search/ai-search.ts";
import { runUntilSignal } from "../run-until-signal.ts";

/** `--batch-size N` and `--claim-seconds N`; other settings come from the environment. */
function workerFlags(args: string[]): { batchSize?: number; claimMs?: number } {
  const flags: { batchSize?: number; claimMs?: number } = {};
  for (let i = 0; i < args.length; i += 2) {
    const value = Number(args[i + 1]);
    if (!Number.isInteger(value) || value <= 0) {
      throw new ConfigError(`Cannot start the worker: ${args[i]} needs a positive whole number`);
    }
    if (args[i] === "--batch-size") flags.batchSize = value;
    else if (args[i] === "--claim-seconds") flags.claimMs = value * 1000;
    else throw new ConfigError(`Cannot start the worker: unknown option ${args[i]}`);
  }
  return flags;
}

await runUntilSignal(async () => {
  const config = loadConfig(Deno.env.toObject());
  const flags = workerFlags(Deno.args);
  const provider = createEmbeddingProvider(config.embeddings ?? { provider: "local" });
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrate(db.sql);
  const ai = new AiSearch({ sql: db.sql, provider, runWorker: true, worker: flags });
  const status = await ai.start();
  console.log(
    status.available
      ? `Embedding worker started with ${provider.model}`
      : `Embedding worker waiting: AI search is unavailable: ${status.reason}`,
  );
  const unlisten = await listenForEmbeddingWork(db, () => ai.wake());
  return async () => {
    await unlisten();
    await ai.stop();
    await db.close();
  };
});
