/** Where output goes: results on stdout, progress and problems on stderr; colour only on a TTY. */
import process from "node:process";

/** The two streams and what they are connected to. */
export interface Terminal {
  out(text: string): void;
  err(text: string): void;
  /** Overwrites the current stderr line (for progress); only used when stderrIsTty. */
  status(text: string): void;
  stdoutIsTty: boolean;
  stderrIsTty: boolean;
}

/** The process's own terminal. */
export function processTerminal(): Terminal {
  let statusShown = false;
  const clearStatus = () => {
    if (statusShown) {
      process.stderr.write("\r\x1b[2K");
      statusShown = false;
    }
  };
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
    stdoutIsTty: Boolean(process.stdout.isTTY),
    stderrIsTty: Boolean(process.stderr.isTTY),
  };
}
