/**
 * Alerts as the rest of the server sees them: events queued for matching where a batch's
 * duplicate detection completes (in its transaction), matched by the percolator after its
 * commit; notices decided when a key becomes trusted; the in-process wake of the delivery worker
 * once a decision is committed.
 */
import type { Sql } from "postgres";
import { queueForMatching, underMatchingLock } from "../db/alert-match-queue.ts";
import { decideNotices } from "../db/notices.ts";
import type { DeliveryWorker } from "./delivery-worker.ts";
import type { Mailer } from "./mailer.ts";
import { Percolator, type PercolatorOptions } from "./percolator.ts";

/** Decides notices and wakes the worker that delivers them. */
export class Alerts {
  readonly #sql: Sql;
  readonly #worker: DeliveryWorker | null;
  readonly #percolator: Percolator;
  /** The server's mailer, when SMTP_URL is set (address confirmations use it too). */
  readonly mailer: Mailer | null;
  /** Events queued for matching since the percolator was last woken (possibly not committed). */
  #queued = false;

  constructor(
    sql: Sql,
    o: {
      worker: DeliveryWorker | null;
      mailer?: Mailer | null;
      lastPushAt?: () => number;
      /** The percolator's timings (ALERT_MATCH_* settings). */
      matching?: Pick<PercolatorOptions, "idleMs" | "maxDelayMs" | "batchSize">;
    },
  ) {
    this.#sql = sql;
    this.#worker = o.worker;
    this.mailer = o.mailer ?? null;
    this.#percolator = new Percolator({
      sql,
      ...o.matching,
      lastPushAt: o.lastPushAt,
      decided: () => this.wake(),
    });
  }

  /**
   * In the transaction where duplicate detection of `eventIds` completed: queues them for
   * matching, so that it sees their groups (a second listing of an event already told of tells
   * nothing) and a stop before it loses nothing.
   */
  async detected(tx: Sql, eventIds: string[]): Promise<void> {
    await queueForMatching(tx, eventIds);
    if (eventIds.length > 0) this.#queued = true;
  }

  /** After that transaction's commit: the percolator matches them at the next pause. */
  committed(): void {
    if (!this.#queued) return;
    this.#queued = false;
    this.#percolator.queued();
  }

  /** Resolves once the events queued so far are matched, or after `timeoutMs` (tests). */
  matched(timeoutMs?: number): Promise<void> {
    return this.#percolator.settled(timeoutMs);
  }

  /** A key became trusted: its events tell of themselves now, as if just written. */
  async keyTrusted(keyId: string): Promise<void> {
    const decided = await underMatchingLock(this.#sql, (tx) => decideNotices(tx, { keyId }));
    if (decided > 0) this.wake();
  }

  /** Something was committed to deliver. */
  wake(): void {
    this.#worker?.wake();
  }

  /** Starts the percolator, and the delivery worker if this server runs one. */
  start(): void {
    this.#percolator.start();
    this.#worker?.start();
  }

  /** Stops both; what is queued or undelivered stays for the next start. */
  async stop(): Promise<void> {
    await this.#percolator.stop();
    await this.#worker?.stop();
    this.mailer?.close();
  }
}
