/** The life of a long-running process: start, run until SIGINT or SIGTERM, stop cleanly. */
import { ConfigError } from "./config.ts";

/**
 * Runs `start`, which returns how to stop what it started; a start-up failure exits 1 (a bad
 * setting with just its message), a signal stops and exits 0.
 */
export async function runUntilSignal(start: () => Promise<() => Promise<void>>): Promise<void> {
  try {
    const stop = await start();
    let stopping = false;
    const onSignal = async () => {
      if (stopping) return;
      stopping = true;
      await stop();
      Deno.exit(0);
    };
    Deno.addSignalListener("SIGINT", onSignal);
    Deno.addSignalListener("SIGTERM", onSignal);
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    Deno.exit(1);
  }
}
