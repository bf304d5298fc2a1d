/** A one-line progress bar on stderr, drawn only when stderr is a terminal. */
import type { Terminal } from "./terminal.ts";

const WIDTH = 24;
const REDRAW_MS = 100;

/** What the bar shows. */
export interface ProgressState {
  bytesRead: number;
  totalBytes: number | null;
  records: number;
  sent: number;
  waiting?: string;
}

/** Redraws at most every 100 ms; silent when stderr is not a TTY. */
export class ProgressBar {
  #last = 0;

  constructor(readonly terminal: Terminal, readonly enabled: boolean) {}

  /** Draws the state unless it was drawn very recently. */
  update(state: ProgressState, force = false): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (!force && now - this.#last < REDRAW_MS) return;
    this.#last = now;
    let bar = "";
    if (state.totalBytes) {
      const share = Math.min(1, state.bytesRead / state.totalBytes);
      const filled = Math.round(share * WIDTH);
      bar = `[${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${
        String(Math.floor(share * 100)).padStart(3)
      }% `;
    }
    const wait = state.waiting ? `, ${state.waiting}` : "";
    this.terminal.status(`${bar}${state.records} read, ${state.sent} sent${wait}`);
  }

  /** Removes the bar. */
  clear(): void {
    if (this.enabled) this.terminal.status("");
  }
}
