/**
 * Requests of one kind in flight, from their arrival to their answer, for background work that
 * gives way to them. The embedded database runs one statement at a time, and on either database
 * the server runs its JavaScript on one thread, so background work would otherwise hold up what a
 * visitor or a contributor waits for:
 * - saved-search matching waits for a pause in the pushes (server/alerts/percolator.ts);
 * - federation's publisher starts a transaction once no request has been in flight for a moment,
 *   or once it has waited long enough (server/federation/publisher.ts, server/serve.ts).
 *
 * Batches being stored do not tell a pause: between two batches of one contributor pushing back
 * to back, none is stored for the 200 ms and more that the next one's key look-up, validation and
 * admission wait behind the last one's detection. A streamed answer counts until its headers.
 */
export class InFlight {
  #inFlight = 0;
  /** When the last request in flight ended, none having started since. */
  #endedAt = 0;
  #quiet: (() => void)[] = [];

  /** Runs `request`, counted in flight until it settles. */
  async during<T>(request: () => Promise<T>): Promise<T> {
    this.#inFlight++;
    try {
      return await request();
    } finally {
      if (--this.#inFlight === 0) {
        this.#endedAt = Date.now();
        for (const resolve of this.#quiet.splice(0)) resolve();
      }
    }
  }

  /** When a request was last in flight: now while one is (ms since the epoch; 0 if none yet). */
  lastAt(): number {
    return this.#inFlight > 0 ? Date.now() : this.#endedAt;
  }

  /**
   * Resolves once no request has been in flight for `idleMs` (a client sending one request after
   * another leaves gaps of a millisecond between them), or after `mostMs` at the latest.
   */
  async quiet(mostMs: number, idleMs = 0): Promise<void> {
    const deadline = Date.now() + mostMs;
    for (let now = Date.now(); now < deadline; now = Date.now()) {
      if (this.#inFlight > 0) await this.#noneInFlight(deadline - now);
      else if (now - this.#endedAt >= idleMs) return;
      else await sleep(Math.min(idleMs - (now - this.#endedAt), deadline - now));
    }
  }

  /** Resolves when no request is in flight, or after `ms`. */
  async #noneInFlight(ms: number): Promise<void> {
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#quiet.push(resolve);
    const timer = setTimeout(resolve, ms);
    try {
      await promise;
    } finally {
      clearTimeout(timer);
      this.#quiet = this.#quiet.filter((r) => r !== resolve);
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
