/** `events validate <input>`: check a feed against the schema without any network request. */
import type { Terminal } from "../output/terminal.ts";
import type { ReadSettings } from "../settings.ts";
import { runRecords } from "./run-records.ts";

/** Reads and checks every record; exits non-zero when one is invalid. */
export async function validate(
  input: string,
  read: ReadSettings,
  terminal: Terminal,
): Promise<void> {
  await runRecords(input, { command: "validate", read }, terminal);
}
