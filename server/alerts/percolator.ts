/**
 * Matching detected events against every saved search (server/db/notices.ts decideNotices), in
 * transactions of its own after detection's, out of the pushes' way. Detection queues what it
 * detected (server/db/alert-match-queue.ts), in its transaction; the percolator takes the queue
 * when no push has been in flight for `idleMs`, or once events have waited `maxDelayMs` under a
 * steady stream of pushes, up to `batchSize` events a pass, and looks for a pause again before
 * the next pass. On the embedded database, which runs one statement at a time, a pass is work a
 * push would otherwise wait for. What a stopped server left queued is taken at start and by the
 * poll.
 */
import type { Sql } from "postgres";
import { takeForMatching, underMatchingLock } from "../db/alert-match-queue.ts";
import { decideNotices } from "../db/notices.ts";

/** How the percolator runs. */
export interface PercolatorOptions {
  sql: Sql;
  /** When a push was last in flight (ms since the epoch; now while one is). */
  lastPushAt?: () => number;
  /** The pause in the pushes it waits for. */
  idleMs?: number;
  /** The longest a queued event waits for such a pause. */
  maxDelayMs?: number;
  /** Queued events one pass takes at most. */
  batchSize?: number;
  /** How often to look for what other servers left queued. */
  pollMs?: number;
  /** After a pass that decided notices committed (wakes the delivery worker). */
  decided?: () => void;
  log?: (message: string) => void;
}

/** How often a waiting percolator looks whether the pushes paused. */
const LOOK_MS = 25;
const RETRY_MS = 1_000;

/** Matches queued events in the background; see the module comment. */
export class Percolator {
  readonly #o: Required<PercolatorOptions>;
  /** Wakes so far (a detection committed, the poll, a start), and the wakes matched. */
  #wakes = 0;
  #matchedUpTo = 0;
  /** When the oldest wake not matched came. */
  #waitingSince = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #poll: ReturnType<typeof setInterval> | null = null;
  #running: Promise<void> | null = null;
  #stopped = true;
  #waiters: (() => void)[] = [];

  constructor(options: PercolatorOptions) {
    this.#o = {
      sql: options.sql,
      lastPushAt: options.lastPushAt ?? (() => 0),
      idleMs: options.idleMs ?? 200,
      maxDelayMs: options.maxDelayMs ?? 5_000,
      batchSize: options.batchSize ?? 1_000,
      pollMs: options.pollMs ?? 60_000,
      decided: options.decided ?? (() => {}),
      log: options.log ?? ((m) => console.error(m)),
    };
  }

  /** Takes what is queued already, and looks again now and then. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.queued();
    this.#poll = setInterval(() => this.queued(), this.#o.pollMs);
  }

  /** Events were queued and committed: match them at the next pause. */
  queued(): void {
    if (this.#stopped) return;
    if (this.#wakes === this.#matchedUpTo) this.#waitingSince = Date.now();
    this.#wakes++;
    this.#schedule(0);
  }

  /** Resolves once every wake so far is matched, or after `timeoutMs` (tests, benchmarks). */
  settled(timeoutMs = 10_000): Promise<void> {
    if (this.#idle()) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== done);
        resolve();
      }, timeoutMs);
      this.#waiters.push(done);
    });
  }

  /** Stops after the pass in progress; what is queued stays queued. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    if (this.#poll !== null) clearInterval(this.#poll);
    this.#timer = null;
    await this.#running;
    for (const w of this.#waiters.splice(0)) w();
  }

  #idle(): boolean {
    return this.#stopped || (this.#matchedUpTo >= this.#wakes && this.#running === null);
  }

  #schedule(ms: number): void {
    if (this.#timer !== null || this.#running !== null || this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#look();
    }, ms);
  }

  /** Matches now if the pushes paused (or waited long enough), else looks again soon. */
  #look(): void {
    if (this.#stopped || this.#matchedUpTo >= this.#wakes) return;
    const now = Date.now();
    // Not sampled here: a wake comes between two pushes, when none is in flight.
    const paused = now - this.#o.lastPushAt() >= this.#o.idleMs;
    if (!paused && now - this.#waitingSince < this.#o.maxDelayMs) {
      this.#schedule(LOOK_MS);
      return;
    }
    this.#running = this.#pass().then(() => 0, (err) => {
      this.#o.log(`Cannot match events against saved searches (tried again soon): ${err}`);
      return RETRY_MS;
    }).then((retryMs) => {
      this.#running = null;
      if (this.#matchedUpTo < this.#wakes) this.#schedule(retryMs);
      else for (const w of this.#waiters.splice(0)) w();
    });
  }

  /**
   * One pass; a pass that took a full batch leaves the rest for the next look, which waits again
   * for a pause (unless the oldest event waited the longest delay): pushes that resumed meanwhile
   * wait for one pass at most, not for the whole backlog.
   */
  async #pass(): Promise<void> {
    const upTo = this.#wakes;
    let decided = 0;
    const taken = await underMatchingLock(this.#o.sql, async (tx) => {
      const ids = await takeForMatching(tx, this.#o.batchSize);
      if (ids.length > 0) decided = await decideNotices(tx, { eventIds: ids });
      return ids.length;
    });
    if (decided > 0) this.#o.decided();
    if (taken < this.#o.batchSize) {
      // The queue was empty: events queued during the pass wait for the next pause.
      this.#matchedUpTo = Math.max(this.#matchedUpTo, upTo);
      if (this.#matchedUpTo < this.#wakes) this.#waitingSince = Date.now();
    }
  }
}
