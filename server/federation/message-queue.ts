/**
 * Fedify's MessageQueue over our database (server/db/federation-queue.ts). No LISTEN/NOTIFY (the
 * embedded database's connection does not carry it): a listener polls, and an enqueue in this
 * process wakes it at once. Messages are leased while handled, so a crash hands them to the next
 * worker; messages of one ordering key go one at a time, in order.
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
  type QueuedMessage,
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
    this.#concurrency = options.concurrency ?? 32;
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

  /**
   * Hands due messages to `handler`, up to `concurrency` at once, until `signal` aborts: a
   * finished message makes room for the next at once (the next of its ordering key among them).
   */
  async listen(
    handler: (message: unknown) => Promise<void> | void,
    options: MessageQueueListenOptions = {},
  ): Promise<void> {
    const { signal } = options;
    const inFlight = new Set<Promise<void>>();
    while (!signal?.aborted) {
      const room = this.#concurrency - inFlight.size;
      let taken: QueuedMessage[] = [];
      if (room > 0) {
        try {
          taken = await takeMessages(this.#sql, { limit: room, leaseMs: this.#leaseMs });
        } catch (err) {
          if (!signal?.aborted) console.error("Cannot take federation messages:", err);
        }
      }
      for (const m of taken) {
        const running: Promise<void> = this.#handle(handler, m).finally(() =>
          inFlight.delete(running)
        );
        inFlight.add(running);
      }
      if (taken.length > 0 && inFlight.size < this.#concurrency) continue;
      const sleep = this.#sleep(signal);
      await Promise.race(inFlight.size > 0 ? [sleep.done, ...inFlight] : [sleep.done]);
      sleep.cancel();
    }
    await Promise.all(inFlight);
  }

  async #handle(
    handler: (message: unknown) => Promise<void> | void,
    m: QueuedMessage,
  ): Promise<void> {
    try {
      await handler(m.message);
    } catch (err) {
      // Fedify retries deliveries itself (a new message); a handler that throws is done.
      console.error("Federation message failed:", err);
    }
    await finishMessage(this.#sql, m.id).catch((err) =>
      console.error("Cannot finish a federation message:", err)
    );
  }

  #wake(): void {
    for (const wake of [...this.#wakers]) wake();
  }

  /** Waits for the poll interval, an enqueue in this process, or the abort; or is cancelled. */
  #sleep(signal?: AbortSignal): { done: Promise<void>; cancel: () => void } {
    let finish = () => {};
    const done = new Promise<void>((resolve) => {
      finish = () => {
        clearTimeout(timer);
        this.#wakers.delete(finish);
        signal?.removeEventListener("abort", finish);
        resolve();
      };
    });
    const timer = setTimeout(finish, this.#pollMs);
    this.#wakers.add(finish);
    signal?.addEventListener("abort", finish, { once: true });
    return { done, cancel: finish };
  }
}
