/**
 * How many pushed batches are stored at once. A batch holds one of the pool's connections for its
 * whole transaction, and its steps wait for this process's turn on a busy machine; with 20 keys
 * pushing, batches held all ten connections most of the time and every page, search and MCP call
 * queued behind them (site pages p50 330 ms instead of 7). Batches past the slots wait here,
 * holding no connection, so reads always find one.
 */
export class BatchSlots {
  readonly size: number;
  #busy = 0;
  readonly #waiting: (() => void)[] = [];

  /** At most `size` (at least 1) batches at once. */
  constructor(size: number) {
    this.size = Math.max(1, Math.floor(size));
  }

  /** Slots for a pool of `connections`: half of it, so reads keep the other half. */
  static forPool(connections: number): BatchSlots {
    return new BatchSlots(connections / 2);
  }

  /** Runs `work` in a slot, waiting in order for one to be free. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#busy < this.size) this.#busy++;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await work();
    } finally {
      // A waiting batch takes the slot over as it is: the count stays.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#busy--;
    }
  }

  /** Batches being stored now. */
  get busy(): number {
    return this.#busy;
  }

  /** Batches waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }
}
