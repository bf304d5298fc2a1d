/**
 * Progress on stderr: a bar redrawn in place on a terminal; elsewhere (a CI log) one plain line
 * every few seconds, also while the run only waits for the rate limit, so a log never goes silent
 * for long. A run shorter than the interval prints no progress at all.
 */
import type { Terminal } from "./terminal.ts";

const WIDTH = 24;
const REDRAW_MS = 100;

/** What progress shows. */
export interface ProgressState {
  bytesRead: number;
  totalBytes: number | null;
  records: number;
  sent: number;
  /** Why the run is waiting and until when (epoch ms), if it is. */
  waiting?: { reason: string; untilMs: number };
}

/** How to report. */
export interface ProgressOptions {
  /** Draw a bar in place (stderr is a terminal); else print lines. */
  tty: boolean;
  /** Milliseconds between lines when not on a terminal. */
  intervalMs: number;
}

function count(n: number): string {
  return n.toLocaleString("en");
}

function describe(state: ProgressState, now: number): string {
  const share = state.totalBytes ? Math.min(1, state.bytesRead / state.totalBytes) : null;
  const percent = share === null ? "" : ` (${Math.floor(share * 100)}% of the input)`;
  let text = `${count(state.records)} records read${percent}, ${count(state.sent)} sent`;
  if (state.waiting) {
    const left = Math.max(0, Math.ceil((state.waiting.untilMs - now) / 1000));
    text += `; waiting ${left} s (${state.waiting.reason})`;
  }
  return text;
}

/** Reports the state it is given; `stop()` clears the bar or ends the lines. */
export class Progress {
  #state: ProgressState = { bytesRead: 0, totalBytes: null, records: 0, sent: 0 };
  #lastDraw = 0;
  #lastLine = Date.now();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(readonly terminal: Terminal, readonly options: ProgressOptions) {
    if (!options.tty) {
      // Lines come from update() while records flow (reading may keep timers from firing) and
      // from this timer while the run only waits.
      this.#timer = setInterval(() => this.#line(), Math.min(1000, options.intervalMs));
      // Progress never keeps the process alive.
      (this.#timer as { unref?: () => void }).unref?.();
    }
  }

  /** Takes the latest state; on a terminal, redraws (at most every 100 ms unless `force`). */
  update(state: Partial<ProgressState>, force = false): void {
    this.#state = { ...this.#state, ...state };
    if (!("waiting" in state)) delete this.#state.waiting;
    if (!this.options.tty) return this.#line();
    const now = Date.now();
    if (!force && now - this.#lastDraw < REDRAW_MS) return;
    this.#lastDraw = now;
    const share = this.#state.totalBytes
      ? Math.min(1, this.#state.bytesRead / this.#state.totalBytes)
      : null;
    const bar = share === null
      ? ""
      : `[${"#".repeat(Math.round(share * WIDTH))}${
        "-".repeat(WIDTH - Math.round(share * WIDTH))
      }] `;
    this.terminal.status(`${bar}${describe(this.#state, now)}`);
  }

  /** Prints a line when the interval has passed since the last one. */
  #line(): void {
    const now = Date.now();
    if (now - this.#lastLine < this.options.intervalMs) return;
    this.#lastLine = now;
    this.terminal.err(`progress: ${describe(this.#state, now)}`);
  }

  /** Ends the reporting: clears the bar, stops the lines. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    if (this.options.tty) this.terminal.status("");
  }
}
