/**
 * Fedify's MessageQueue over our database (server/db/federation-queue.ts). No LISTEN/NOTIFY (the
 * embedded database's socket does not carry it): a listener polls, and an enqueue in this process
 * wakes it at once. Messages are leased while handled, so a crash hands them to the next worker;
 * messages of one ordering key go one at a time, in order.
 */
import type { Sql } from "postgres";
import type {
  MessageQueue,
  MessageQueueDepth,
  MessageQueueEnqueueOptions,
  MessageQueueListenOptions,
} from "@fedify/fedify";
import {
  countQueued,
  enqueueMessages,
  finishMessage,
  takeMessages,
} from "../db/federation-queue.ts";

/** How a queue runs. */
export interface QueueOptions {
  /** How often an idle listener looks for due messages (others' and delayed ones). */
  pollMs?: number;
  /** Messages handled at once by one listener. */
  concurrency?: number;
  /** How long a taken message is kept from other workers. */
  leaseMs?: number;
}

/** The MessageQueue Fedify is given. */
export class DatabaseMessageQueue implements MessageQueue {
  readonly nativeRetrial = false;
  readonly #sql: Sql;
  readonly #pollMs: number;
  readonly #concurrency: number;
  readonly #leaseMs: number;
  #wakers = new Set<() => void>();

  constructor(sql: Sql, options: QueueOptions = {}) {
    this.#sql = sql;
    this.#pollMs = options.pollMs ?? 1_000;
    this.#concurrency = options.concurrency ?? 16;
    this.#leaseMs = options.leaseMs ?? 5 * 60_000;
  }

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options);
  }

  async enqueueMany(
    messages: readonly unknown[],
    options?: MessageQueueEnqueueOptions,
  ): Promise<void> {
    const delayMs = options?.delay?.total({ unit: "millisecond" }) ?? 0;
    await enqueueMessages(this.#sql, { messages, delayMs, orderingKey: options?.orderingKey });
    if (delayMs <= 0) this.#wake();
  }

  getDepth(): Promise<MessageQueueDepth> {
    return countQueued(this.#sql);
  }

  /** Takes due messages and hands them to `handler` until `signal` aborts. */
  async listen(
    handler: (message: unknown) => Promise<void> | void,
    options: MessageQueueListenOptions = {},
  ): Promise<void> {
    const { signal } = options;
    while (!signal?.aborted) {
      let taken: Awaited<ReturnType<typeof takeMessages>> = [];
      try {
        taken = await takeMessages(this.#sql, {
          limit: this.#concurrency,
          leaseMs: this.#leaseMs,
        });
      } catch (err) {
        if (!signal?.aborted) console.error("Cannot take federation messages:", err);
      }
      await Promise.all(taken.map(async (m) => {
        try {
          await handler(m.message);
        } catch (err) {
          // Fedify retries deliveries itself (a new message); a handler that throws is done.
          console.error("Federation message failed:", err);
        }
        await finishMessage(this.#sql, m.id).catch((err) =>
          console.error("Cannot finish a federation message:", err)
        );
      }));
      if (taken.length === this.#concurrency) continue;
      await this.#sleep(signal);
    }
  }

  #wake(): void {
    for (const wake of [...this.#wakers]) wake();
  }

  /** Waits for the poll interval, an enqueue in this process, or the abort. */
  #sleep(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wakers.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, this.#pollMs);
      this.#wakers.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }
}
