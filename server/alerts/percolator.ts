/**
 * Matching detected events against every saved search (server/db/notices.ts decideNotices), in
 * transactions of its own after detection's, out of the pushes' way. Detection queues what it
 * detected (server/db/alert-match-queue.ts), in its transaction; the percolator takes the queue
 * when no batch has been stored for `idleMs`, or once events have waited `maxDelayMs` under a
 * steady stream of pushes, up to `batchSize` events a pass. On the embedded database, which runs
 * one statement at a time, a pass is work a push would otherwise wait for; a backlog is matched in
 * fewer, larger passes. What a stopped server left queued is taken at start and by the poll.
 */
import type { Sql } from "postgres";
import { takeForMatching, underMatchingLock } from "../db/alert-match-queue.ts";
import { decideNotices } from "../db/notices.ts";

/** How the percolator runs. */
export interface PercolatorOptions {
  sql: Sql;
  /** Whether a batch is being stored now. */
  busy?: () => boolean;
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
  /** When the oldest wake not matched came; when a batch was last seen being stored. */
  #waitingSince = 0;
  #busySeenAt = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #poll: ReturnType<typeof setInterval> | null = null;
  #running: Promise<void> | null = null;
  #stopped = true;
  #waiters: (() => void)[] = [];

  constructor(options: PercolatorOptions) {
    this.#o = {
      sql: options.sql,
      busy: options.busy ?? (() => false),
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
    if (this.#o.busy()) this.#busySeenAt = now;
    const paused = now - this.#busySeenAt >= this.#o.idleMs;
    if (!paused && now - this.#waitingSince < this.#o.maxDelayMs) {
      this.#schedule(LOOK_MS);
      return;
    }
    this.#running = this.#drain().catch((err) => {
      this.#o.log(`Cannot match events against saved searches (tried again soon): ${err}`);
      return RETRY_MS;
    }).then((retryMs) => {
      this.#running = null;
      if (this.#matchedUpTo < this.#wakes) this.#schedule(retryMs ?? 0);
      else for (const w of this.#waiters.splice(0)) w();
    });
  }

  /** Passes until one finds fewer events than it asked for (the queue was empty). */
  async #drain(): Promise<number | undefined> {
    while (!this.#stopped) {
      const upTo = this.#wakes;
      let decided = 0;
      const taken = await underMatchingLock(this.#o.sql, async (tx) => {
        const ids = await takeForMatching(tx, this.#o.batchSize);
        if (ids.length > 0) decided = await decideNotices(tx, { eventIds: ids });
        return ids.length;
      });
      if (decided > 0) this.#o.decided();
      if (taken < this.#o.batchSize) {
        // Events queued during the pass wait for the next pause.
        this.#matchedUpTo = Math.max(this.#matchedUpTo, upTo);
        if (this.#matchedUpTo < this.#wakes) this.#waitingSince = Date.now();
        return undefined;
      }
    }
    return undefined;
  }
}
