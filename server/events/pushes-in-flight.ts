/**
 * When pushes (POST /api/v1/events) were last in flight, from their arrival to their answer.
 * Saved-search matching waits for a pause in the pushes (server/alerts/percolator.ts): on the
 * embedded database, which runs one statement at a time, a pass would otherwise hold up the next
 * batch. Batches being stored do not tell a pause: between two batches of one contributor pushing
 * back to back, none is stored for the 200 ms and more that the next one's key look-up,
 * validation and admission wait behind the last one's detection.
 */
export class PushesInFlight {
  #inFlight = 0;
  /** When the last push in flight ended, none having started since. */
  #endedAt = 0;

  /** Runs `push`, counted in flight until it settles. */
  async during<T>(push: () => Promise<T>): Promise<T> {
    this.#inFlight++;
    try {
      return await push();
    } finally {
      if (--this.#inFlight === 0) this.#endedAt = Date.now();
    }
  }

  /** When a push was last in flight: now while one is (ms since the epoch; 0 if none yet). */
  lastAt(): number {
    return this.#inFlight > 0 ? Date.now() : this.#endedAt;
  }
}
