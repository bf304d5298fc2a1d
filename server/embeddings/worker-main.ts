/**
 * `deno task worker`: the embedding worker as its own process, for operators who scale out. Run
 * the servers with EMBEDDINGS_WORKER=external and one or more of these against the same
 * PostgreSQL; claims keep them from embedding the same event twice.
 */
import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/connect.ts";
import { migrate } from "../db/migrate.ts";
import { startAiSearch } from "./start-ai-search.ts";
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
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db.sql);
    const ai = await startAiSearch(db, {
      provider: config.embeddings,
      runWorker: true,
      worker: flags,
    });
    console.log(`Embedding worker started with ${ai.provider.model}`);
    return async () => {
      await ai.stop();
      await db.close();
    };
  } catch (err) {
    await db.close();
    throw err;
  }
});
