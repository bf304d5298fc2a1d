/**
 * Alerts as the rest of the server sees them: notices decided where a batch's duplicate
 * detection completes (in its transaction), when a key becomes trusted, and the in-process wake
 * of the delivery worker once such a decision is committed.
 */
import type { Sql } from "postgres";
import { decideNotices } from "../db/notices.ts";
import type { DeliveryWorker } from "./delivery-worker.ts";
import type { Mailer } from "./mailer.ts";

/** Decides notices and wakes the worker that delivers them. */
export class Alerts {
  readonly #sql: Sql;
  readonly #worker: DeliveryWorker | null;
  /** The server's mailer, when SMTP_URL is set (address confirmations use it too). */
  readonly mailer: Mailer | null;
  /** Notices decided since the worker was last woken (possibly not yet committed). */
  #decided = false;

  constructor(sql: Sql, worker: DeliveryWorker | null, mailer: Mailer | null = null) {
    this.#sql = sql;
    this.#worker = worker;
    this.mailer = mailer;
  }

  /**
   * In the transaction where duplicate detection of `eventIds` completed: their notices, so a
   * second listing of an event already told of tells nothing.
   */
  async detected(tx: Sql, eventIds: string[]): Promise<void> {
    if (await decideNotices(tx, { eventIds }) > 0) this.#decided = true;
  }

  /** After that transaction's commit: the worker delivers what it decided. */
  committed(): void {
    if (!this.#decided) return;
    this.#decided = false;
    this.wake();
  }

  /** A key became trusted: its events tell of themselves now, as if just written. */
  async keyTrusted(keyId: string): Promise<void> {
    const decided = await this.#sql.begin((tx) =>
      decideNotices(tx as unknown as Sql, { keyId })
    ) as number;
    if (decided > 0) this.wake();
  }

  /** Something was committed to deliver. */
  wake(): void {
    this.#worker?.wake();
  }

  /** Starts the delivery worker, if this server runs one. */
  start(): void {
    this.#worker?.start();
  }

  /** Stops the delivery worker; undelivered notices stay for the next start. */
  async stop(): Promise<void> {
    await this.#worker?.stop();
    this.mailer?.close();
  }
}
