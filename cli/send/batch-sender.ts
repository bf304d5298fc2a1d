/**
 * Sends batches to POST /api/v1/events: paced by the RateLimit fields, retried on 429, 5xx,
 * timeouts and dropped connections (upserts make a repeat harmless), split on 413; a 400 costs
 * only its own batch, and 401/403 stop everything.
 */
import { BatchResult, ValidationErrorBody } from "../../shared/api-schemas.ts";
import { AuthError, GaveUpError, UsageError } from "../errors.ts";
import { type ApiClient, type ApiResponse, errorText, TransportError } from "./api-client.ts";
import { backoffMs, sleep } from "./backoff.ts";
import type { Problem } from "./problem.ts";
import {
  paceDelayMs,
  type RateLimitState,
  readRateLimit,
  retryAfterSeconds,
} from "./rate-limit.ts";

/** Events to send together, with where each came from. */
export interface Batch {
  events: Record<string, unknown>[];
  locations: string[];
}

/** Running totals of what the server did. */
export interface SendTotals {
  batches: number;
  inserted: number;
  updated: number;
  rejected: number;
  retries: number;
  /** Time spent inside requests (the server's share plus the network). */
  requestMs: number;
  /** Time spent waiting for the rate limit or between retries. */
  waitedMs: number;
}

/** How to send. */
export interface SenderOptions {
  maxRetries: number;
  onProblem: (problem: Problem) => void;
  onWait?: (ms: number, reason: string) => void;
}

const PATH = "/api/v1/events";
// A server asking for a longer pause than this is not coming back within a CI job's patience.
const MAX_RETRY_AFTER_S = 900;

/** Sends batches one after another and keeps the totals. */
export class BatchSender {
  readonly totals: SendTotals = {
    batches: 0,
    inserted: 0,
    updated: 0,
    rejected: 0,
    retries: 0,
    requestMs: 0,
    waitedMs: 0,
  };
  #rate: RateLimitState | null = null;

  constructor(readonly client: ApiClient, readonly options: SenderOptions) {}

  async #wait(ms: number, reason: string): Promise<void> {
    if (ms <= 0) return;
    this.options.onWait?.(ms, reason);
    this.totals.waitedMs += ms;
    await sleep(ms);
  }

  #giveUp(attempts: number, why: string, batch: Batch): never {
    throw new GaveUpError(
      `Cannot send the batch starting at ${batch.locations[0]}: ${why}; gave up after ${attempts} ${
        attempts === 1 ? "retry" : "retries"
      } (--max-retries ${this.options.maxRetries})`,
    );
  }

  /** Sends one batch until the server has decided on it; throws when it must stop. */
  async send(batch: Batch): Promise<void> {
    let retries = 0;
    const retry = async (why: string, waitMs: number) => {
      if (retries >= this.options.maxRetries) this.#giveUp(retries, why, batch);
      retries++;
      this.totals.retries++;
      await this.#wait(waitMs, why);
    };
    for (;;) {
      await this.#wait(paceDelayMs(this.#rate), "rate limit");
      // The quota just waited for is the server's to report again.
      if (this.#rate && this.#rate.remaining <= 0) this.#rate = null;
      let response: ApiResponse;
      try {
        response = await this.client.send("POST", PATH, { events: batch.events });
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        await retry(error.message, backoffMs(retries));
        continue;
      }
      this.totals.requestMs += response.elapsedMs;
      this.#rate = readRateLimit(response) ?? this.#rate;
      const status = response.status;
      if (status === 200) return this.#accepted(batch, response);
      if (status === 400) return this.#refused(batch, response);
      if (status === 413 && batch.events.length > 1) return await this.#split(batch);
      if (status === 401) {
        throw new AuthError(
          `The server refused the API key (401): ${
            errorText(response)
          }. Check --api-key or EVENTS_API_KEY.`,
        );
      }
      if (status === 403) {
        throw new AuthError(
          `The API key may not push events (403): ${
            errorText(response)
          }. It needs the events:write scope.`,
        );
      }
      if (status === 404 || status === 405) {
        throw new UsageError(
          `Cannot push to ${this.client.baseUrl}${PATH}: the server answered ${status}; check --api-url or EVENTS_API_URL`,
        );
      }
      if (status === 429) {
        const after = retryAfterSeconds(response);
        if (after !== null && after > MAX_RETRY_AFTER_S) {
          this.#giveUp(retries, `the server asks to wait ${after} s (rate limit)`, batch);
        }
        await retry(
          "rate limited (429)",
          after === null ? backoffMs(retries) : after * 1000,
        );
        continue;
      }
      if (status === 408 || status >= 500) {
        await retry(
          `the server answered ${status}: ${errorText(response)}`,
          backoffMs(retries),
        );
        continue;
      }
      this.#giveUp(retries, `the server answered ${status}: ${errorText(response)}`, batch);
    }
  }

  #accepted(batch: Batch, response: ApiResponse): void {
    const parsed = BatchResult.safeParse(response.body);
    if (!parsed.success) {
      throw new GaveUpError(
        `Cannot read the server's answer to the batch starting at ${batch.locations[0]}`,
      );
    }
    const { inserted, updated, errors } = parsed.data.data;
    this.totals.batches++;
    this.totals.inserted += inserted;
    this.totals.updated += updated;
    this.totals.rejected += errors.length;
    for (const error of errors) {
      this.options.onProblem({
        location: batch.locations[error.index] ?? `batch item ${error.index}`,
        kind: "rejected",
        message: `${error.message} (${error.code})`,
      });
    }
  }

  /** A 400: nothing of the batch was stored; report each item's problems. */
  #refused(batch: Batch, response: ApiResponse): void {
    this.totals.batches++;
    this.totals.rejected += batch.events.length;
    const parsed = ValidationErrorBody.safeParse(response.body);
    const byIndex = new Map<number, string[]>();
    const general: string[] = [];
    for (const detail of parsed.success ? parsed.data.details : []) {
      const [root, index, ...rest] = detail.path;
      if (root === "events" && typeof index === "number") {
        const list = byIndex.get(index) ?? [];
        list.push(rest.length > 1 ? `${detail.message} (at ${rest.join(".")})` : detail.message);
        byIndex.set(index, list);
      } else {
        general.push(detail.message);
      }
    }
    if (!parsed.success) general.push(errorText(response));
    batch.locations.forEach((location, i) => {
      const own = byIndex.get(i);
      this.options.onProblem({
        location,
        kind: "rejected",
        message: own
          ? own.join("; ")
          : `not stored: the server refused the whole batch (400)${
            general.length ? `: ${general.join("; ")}` : ""
          }`,
      });
    });
  }

  /** A 413: the body was too large; send each half on its own. */
  async #split(batch: Batch): Promise<void> {
    const half = Math.ceil(batch.events.length / 2);
    await this.send({
      events: batch.events.slice(0, half),
      locations: batch.locations.slice(0, half),
    });
    await this.send({ events: batch.events.slice(half), locations: batch.locations.slice(half) });
  }
}
