/**
 * Where output goes: results on stdout, progress and problems on stderr. Colour only when the
 * stream is a terminal and NO_COLOR is not set (https://no-color.org).
 */
import process from "node:process";

/** The two streams and what they are connected to. */
export interface Terminal {
  out(text: string): void;
  err(text: string): void;
  /** Overwrites the current stderr line (for progress); only used when stderrIsTty. */
  status(text: string): void;
  stdoutIsTty: boolean;
  stderrIsTty: boolean;
  /** Whether stdout may carry colour codes. */
  colour: boolean;
  /** Whether stderr may carry colour codes. */
  stderrColour: boolean;
}

/** Whether the environment forbids colour: NO_COLOR set to anything but the empty string. */
export function noColour(env: Record<string, string | undefined>): boolean {
  return env.NO_COLOR !== undefined && env.NO_COLOR !== "";
}

/** The process's own terminal. */
export function processTerminal(env: Record<string, string | undefined>): Terminal {
  let statusShown = false;
  const clearStatus = () => {
    if (statusShown) {
      process.stderr.write("\r\x1b[2K");
      statusShown = false;
    }
  };
  const stdoutIsTty = Boolean(process.stdout.isTTY);
  const stderrIsTty = Boolean(process.stderr.isTTY);
  return {
    out(text) {
      clearStatus();
      process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
    },
    err(text) {
      clearStatus();
      process.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
    },
    status(text) {
      process.stderr.write(`\r\x1b[2K${text}`);
      statusShown = text !== "";
    },
    stdoutIsTty,
    stderrIsTty,
    colour: stdoutIsTty && !noColour(env),
    stderrColour: stderrIsTty && !noColour(env),
  };
}

/** `text` in red when `colour`, for the word "error:". */
export function red(text: string, colour: boolean): string {
  return colour ? `\x1b[31m${text}\x1b[39m` : text;
}
