/** `events push <input>`: read, check and send a feed. */
import type { Terminal } from "../output/terminal.ts";
import type { ApiSettings, ReadSettings } from "../settings.ts";
import { runRecords } from "./run-records.ts";

/** Settings of a push. */
export interface PushSettings {
  read: ReadSettings;
  /** Null with --dry-run: nothing is sent, so no key is needed. */
  api: ApiSettings | null;
  batchSize: number;
  maxRetries: number;
}

/** Pushes every valid record of `input` in batches; with no `api`, shows what would be sent. */
export async function push(
  input: string,
  settings: PushSettings,
  terminal: Terminal,
): Promise<void> {
  await runRecords(input, {
    command: "push",
    read: settings.read,
    send: settings.api === null
      ? undefined
      : { api: settings.api, batchSize: settings.batchSize, maxRetries: settings.maxRetries },
  }, terminal);
}
