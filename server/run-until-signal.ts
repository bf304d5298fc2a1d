/** The life of a long-running process: start, run until SIGINT or SIGTERM, stop cleanly. */
import { ConfigError } from "./config.ts";

export interface RunUntilSignalOptions {
  /**
   * How long stopping may take after the signal before the process exits anyway. Orchestrators
   * wait about 10 s after SIGTERM before they SIGKILL: stay below it.
   */
  graceMs?: number;
  log?: (line: string) => void;
}

const SIGNALS: Deno.Signal[] = ["SIGINT", "SIGTERM"];

/**
 * Runs `start`, which returns how to stop what it started, until SIGINT or SIGTERM; then stops
 * and exits 0. A start-up failure exits 1: a bad setting prints its one-line message, anything
 * else its stack. A signal during start stops right after start; a second signal, or a stop that
 * outlasts `graceMs`, exits 1 at once.
 */
export async function runUntilSignal(
  start: () => Promise<() => Promise<void>>,
  options: RunUntilSignalOptions = {},
): Promise<never> {
  const graceMs = options.graceMs ?? 8_000;
  const log = options.log ?? ((line) => console.error(line));
  const { promise: signalled, resolve } = Promise.withResolvers<Deno.Signal>();
  let received: Deno.Signal | null = null;
  for (const signal of SIGNALS) {
    Deno.addSignalListener(signal, () => {
      if (received !== null) {
        log(`${signal} again: exiting without finishing the stop`);
        Deno.exit(1);
      }
      received = signal;
      // Set here rather than after start: the whole stop, start included, stays bounded.
      setTimeout(() => {
        log(`Cannot stop within ${graceMs / 1000} s: exiting without finishing the stop`);
        Deno.exit(1);
      }, graceMs);
      resolve(signal);
    });
  }
  let stop: () => Promise<void>;
  try {
    stop = await start();
  } catch (err) {
    log(err instanceof ConfigError ? err.message : `Cannot start: ${stackOf(err)}`);
    Deno.exit(1);
  }
  const signal = await signalled;
  log(`${signal} received: stopping (finishing requests in progress)`);
  try {
    await stop();
  } catch (err) {
    log(`Cannot stop cleanly: ${stackOf(err)}`);
    Deno.exit(1);
  }
  log("Stopped");
  Deno.exit(0);
}

function stackOf(err: unknown): string {
  return err instanceof Error ? err.stack ?? err.message : String(err);
}
