/**
 * Detection after commit, on both databases. A batch's transaction only queues the events it
 * wrote (server/db/duplicate-queue.ts); after its commit the detector is woken and detects up to
 * `batchSize` queued events per transaction under the duplicates lock. Reads never wait for it.
 * Pushes keep to detection's measured pace: a take holds what it detects in half a second, and a
 * push waits while more is queued than it detects in a second, so readers keep more of the machine
 * (docs/decisions.md).
 * Queued rows outlive a stop: `start()` takes what a stopped server left, and looks again every
 * minute. A failure that may pass (the database away) is tried again later; any other sends the
 * detector through the queue one event at a time, and an event failing alone is dropped (logged).
 */
import type { Sql } from "postgres";
import { underDuplicatesLock } from "../db/duplicate-links.ts";
import { dropQueued, queueForDetection, takeQueued } from "../db/duplicate-queue.ts";
import { isTransientFailure } from "../db/connection-errors.ts";
import { detectStored } from "./detect-duplicates.ts";
import type { DetectionTimings } from "./detect-duplicates.ts";

/** How a detector runs. */
export interface DetectorOptions {
  /** Queued events taken in one transaction, at most (fewer when detection is slow). */
  batchSize?: number;
  /** Events queued and not taken past which `roomToQueue()` waits, at most (likewise). */
  maxBacklog?: number;
  /** After a failed run, the first wait before trying again (doubled each time, at most 30 s). */
  retryMs?: number;
  /** Milliseconds of each detection step, added up (benchmarks). */
  timings?: DetectionTimings;
  /** Runs where each detection completes (DetectionFollowUp). */
  followUp?: DetectionFollowUp;
}

const MAX_RETRY_MS = 30_000;
/** What a take holds: the events detection gets through in this time (a backlog: twice that). */
const TAKE_MS = 500;
// After start(), how often to look for what other servers left queued.
const POLL_MS = 60_000;

/** What runs in each detecting transaction and after its commit (saved-search alerts). */
export interface DetectionFollowUp {
  detected(tx: Sql, eventIds: string[]): Promise<void>;
  committed(): void;
}

/** Detects queued events in the background; see the module comment. */
export class DuplicateDetector {
  readonly #sql: Sql;
  readonly #o: DetectorOptions & { batchSize: number; maxBacklog: number; retryMs: number };
  /** Events detected per millisecond, averaged over recent takes (0 until one is measured). */
  #rate = 0;
  #poll: ReturnType<typeof setInterval> | null = null;
  /** Wakes so far, and how many of them are detected: each wake is one committed batch. */
  #requested = 0;
  #done = 0;
  #running: Promise<void> | null = null;
  #retry: ReturnType<typeof setTimeout> | null = null;
  #failures = 0;
  #stopped = false;
  #waiters = new Set<{ ready: () => boolean; resolve: () => void }>();
  /** Events this server queued, and events its detections took (counted after each take). */
  #queued = 0;
  #taken = 0;
  /** Events of batches let through roomToQueue and not yet committed (or failed). */
  #admitted = 0;

  constructor(sql: Sql, options: DetectorOptions = {}) {
    this.#sql = sql;
    this.#o = { batchSize: 500, maxBacklog: 1_000, retryMs: 1_000, ...options };
  }

  /** In a pushed batch's transaction, after its upsert: queues what it wrote. */
  async queue(tx: Sql, eventIds: string[]): Promise<void> {
    await queueForDetection(tx, eventIds);
  }

  /** After the batch's commit: wakes the detector for what it queued. */
  committed(eventIds: string[]): void {
    if (eventIds.length === 0) return;
    this.#queued += eventIds.length;
    this.wake();
  }

  /** Takes what is queued already (a stopped server's batches), and looks again now and then. */
  start(): void {
    this.wake();
    this.#poll ??= setInterval(() => this.wake(), POLL_MS);
  }

  /** A batch's events are queued and committed: detect them. */
  wake(): void {
    if (this.#stopped) return;
    this.#requested++;
    this.#run();
  }

  /**
   * Resolves once every batch woken for before this call is detected, or after `timeoutMs`, or at
   * once while detection fails (benchmarks and tests; dev-support/grouping.ts polls the API).
   */
  settled(timeoutMs = 5_000): Promise<void> {
    const upTo = this.#requested;
    return this.#until(() => this.#done >= upTo || this.#failures > 0 || this.#stopped, timeoutMs);
  }

  /**
   * Resolves when a batch of `size` events fits within the backlog beside the events queued and
   * not yet taken and those of batches let through before it (or after `timeoutMs`): called before
   * a batch. Its room is held until the returned function is called, after `committed()` or the
   * batch's failure: pushers let through at once each count the others, or twenty of them would
   * queue twenty batches past the bound, and grouping would wait seconds behind them.
   */
  async roomToQueue(size: number, timeoutMs = 30_000): Promise<() => void> {
    let held = false;
    await this.#until(() => held = this.#admit(size), timeoutMs);
    if (!held) this.#admitted += size; // Let through at the timeout: counted all the same.
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#admitted -= size;
      this.#wakeWaiters();
    };
  }

  /** Resolves when `ready()` holds, looked at after each change of state, or after `timeoutMs`. */
  #until(ready: () => boolean, timeoutMs: number): Promise<void> {
    if (ready()) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    const waiter = { ready, resolve };
    const timer = setTimeout(() => {
      this.#waiters.delete(waiter);
      resolve();
    }, timeoutMs);
    this.#waiters.add(waiter);
    return promise.finally(() => clearTimeout(timer));
  }

  /** Resolves the waiters whose condition now holds. */
  #wakeWaiters(): void {
    for (const w of this.#waiters) {
      if (w.ready()) {
        this.#waiters.delete(w);
        w.resolve();
      }
    }
  }

  /** Holds room for `size` events when it is free (always when nothing waits, or none works). */
  #admit(size: number): boolean {
    const waiting = this.#queued - this.#taken + this.#admitted;
    const room = this.#paced(this.#o.maxBacklog, 2 * TAKE_MS);
    if (waiting > 0 && waiting + size > room && this.#failures === 0 && !this.#stopped) {
      return false;
    }
    this.#admitted += size;
    return true;
  }

  /** What detection gets through in `ms` at its measured pace, within a tenth of `most` and it. */
  #paced(most: number, ms: number): number {
    return this.#rate === 0 ? most : Math.min(most, Math.max(most / 10, this.#rate * ms));
  }

  /** Stops taking work and waits for the run in progress; what is queued stays queued. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#retry !== null) clearTimeout(this.#retry);
    if (this.#poll !== null) clearInterval(this.#poll);
    await this.#running;
    this.#wakeWaiters();
  }

  #run(): void {
    if (this.#running !== null || this.#retry !== null || this.#stopped) return;
    this.#running = this.#drain().then(
      () => {
        this.#failures = 0;
      },
      (err) => {
        this.#failures++;
        console.error("Cannot detect duplicates of queued events (tried again soon):", err);
        this.#release(this.#requested);
        const delay = Math.min(this.#o.retryMs * 2 ** (this.#failures - 1), MAX_RETRY_MS);
        this.#retry = setTimeout(() => {
          this.#retry = null;
          this.#run();
        }, delay);
      },
    ).finally(() => {
      this.#running = null;
      if (this.#done < this.#requested) this.#run();
    });
  }

  /** Detects queued events until a take finds fewer than it asked for (the queue was empty). */
  async #drain(): Promise<void> {
    let one = false;
    while (!this.#stopped) {
      const limit = one ? 1 : Math.round(this.#paced(this.#o.batchSize, TAKE_MS));
      // Every batch woken for by now is committed, so this take or a later one sees its events.
      const upTo = this.#requested;
      let taken: number;
      try {
        const started = performance.now();
        taken = await this.#detectQueued(limit);
        this.#measure(taken, performance.now() - started);
        // Another server's queued events count as taken too: never past what this one queued.
        this.#taken = Math.min(this.#queued, this.#taken + taken);
        this.#wakeWaiters();
      } catch (err) {
        if (limit === 1 || isTransientFailure(err)) throw err;
        console.error("Duplicate detection failed; detecting queued events one at a time:", err);
        one = true;
        continue;
      }
      if (taken < limit) {
        this.#release(upTo);
        if (this.#done >= this.#requested) return;
      }
    }
  }

  /** One transaction: takes up to `limit` queued events and detects them. */
  async #detectQueued(limit: number): Promise<number> {
    let taken: string[] = [];
    try {
      // Taken under the lock: another server's detector has committed what it took.
      const count = await underDuplicatesLock(this.#sql, async (tx) => {
        const queued = await takeQueued(tx, limit);
        taken = queued.events.map((e) => e.id);
        await detectStored(tx, queued.events, {
          recompare: false,
          vectors: () => false,
          timings: this.#o.timings,
        });
        await this.#o.followUp?.detected(tx, taken);
        return queued.taken;
      });
      this.#o.followUp?.committed();
      return count;
    } catch (err) {
      if (limit !== 1 || taken.length !== 1 || isTransientFailure(err)) throw err;
      await dropQueued(this.#sql, taken[0]);
      console.error(`Cannot detect the duplicates of event ${taken[0]}; it stays ungrouped:`, err);
      return 1;
    }
  }

  /** Folds a take's pace into the average; a take of a few events says little. */
  #measure(taken: number, ms: number): void {
    if (taken < 10 || ms <= 0) return;
    this.#rate = this.#rate === 0 ? taken / ms : 0.7 * this.#rate + 0.3 * taken / ms;
  }

  #release(upTo: number): void {
    this.#done = Math.max(this.#done, upTo);
    this.#wakeWaiters();
  }
}
