/**
 * The one retry and pacing loop of the CLI: every request to the service is paced by the
 * RateLimit fields, retried on 429, 408, 5xx, timeouts and dropped connections (only requests that
 * are safe to repeat come here: upserts, listings, deletions by name), and stopped by 401 and 403.
 * What each other status means is the caller's, given as per-status hooks.
 */
import { AuthError, GaveUpError } from "../errors.ts";
import { type ApiClient, type ApiResponse, errorText, TransportError } from "./api-client.ts";
import { backoffMs, sleep } from "./backoff.ts";
import {
  paceDelayMs,
  type RateLimitState,
  readRateLimit,
  retryAfterSeconds,
} from "./rate-limit.ts";

// A server asking for a longer pause than this is not coming back within a CI job's patience.
const MAX_RETRY_AFTER_S = 900;

/** Figures the loop adds to as it goes (a run's summary has these fields). */
export interface RequestFigures {
  retries: number;
  /** Time spent inside requests (the server's share plus the network). */
  request_ms: number;
  /** Time spent waiting for the rate limit or between retries. */
  waited_ms: number;
}

/** How patient to be, who hears about the waiting, and where the figures go. */
export interface Patience {
  maxRetries: number;
  onWait?: (ms: number, reason: string) => void;
  figures: RequestFigures;
}

/** An answer a hook has settled: the request is over with this value. */
export interface Settled<T> {
  done: T;
}

/** What a hook makes of an answer: settled, or null to leave it to the shared rules. */
export type StatusHook<T> = (
  response: ApiResponse,
) => Settled<T> | null | Promise<Settled<T> | null>;

/** One request and what its answers mean. */
export interface RequestPlan<T> {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  /** Names the request in messages: "Cannot <what>: ...". */
  what: string;
  /** What a 403 says the key may not do (default: `what`). */
  forbidden?: string;
  /** Hooks by status, asked before the shared rules; a hook may also throw to stop. */
  on?: Record<number, StatusHook<T>>;
  /** Any answer neither a hook nor the shared rules settle; without it such an answer gives up. */
  otherwise?: (response: ApiResponse) => T;
}

/** Requests that share one rate-limit state (one key) and one set of figures. */
export class RetryingRequests {
  #rate: RateLimitState | null = null;

  constructor(readonly client: ApiClient, readonly patience: Patience) {}

  async #wait(ms: number, reason: string): Promise<void> {
    if (ms <= 0) return;
    const rounded = Math.round(ms);
    this.patience.onWait?.(rounded, reason);
    this.patience.figures.waited_ms += rounded;
    await sleep(rounded);
  }

  #giveUp(what: string, why: string, retries: number): never {
    const tries = `${retries} ${retries === 1 ? "retry" : "retries"}`;
    throw new GaveUpError(
      `Cannot ${what}: ${why}; gave up after ${tries} (--max-retries ${this.patience.maxRetries})`,
    );
  }

  /** Sends until an answer settles the request, and returns what settled it. */
  async send<T>(plan: RequestPlan<T>): Promise<T> {
    let retries = 0;
    const retry = async (why: string, waitMs: number) => {
      if (retries >= this.patience.maxRetries) this.#giveUp(plan.what, why, retries);
      retries++;
      this.patience.figures.retries++;
      await this.#wait(waitMs, why);
    };
    for (;;) {
      await this.#wait(paceDelayMs(this.#rate), "rate limit");
      // The quota just waited for is the server's to report again.
      if (this.#rate && this.#rate.remaining <= 0) this.#rate = null;
      let response: ApiResponse;
      try {
        response = await this.client.send(plan.method, plan.path, plan.body);
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        await retry(error.message, backoffMs(retries));
        continue;
      }
      this.patience.figures.request_ms += Math.round(response.elapsedMs);
      this.#rate = readRateLimit(response) ?? this.#rate;
      const status = response.status;
      const settled = await plan.on?.[status]?.(response);
      if (settled) return settled.done;
      if (status === 401) {
        throw new AuthError(
          `The server refused the API key (401): ${
            errorText(response)
          }. Check --api-key or EVENTS_API_KEY.`,
        );
      }
      if (status === 403) {
        throw new AuthError(
          `The API key may not ${plan.forbidden ?? plan.what} (403): ${
            errorText(response)
          }. It needs the events:write scope.`,
        );
      }
      if (status === 429) {
        const after = retryAfterSeconds(response);
        if (after !== null && after > MAX_RETRY_AFTER_S) {
          this.#giveUp(plan.what, `the server asks to wait ${after} s (rate limit)`, retries);
        }
        await retry("rate limited (429)", after === null ? backoffMs(retries) : after * 1000);
        continue;
      }
      if (status === 408 || status >= 500) {
        await retry(`the server answered ${status}: ${errorText(response)}`, backoffMs(retries));
        continue;
      }
      if (plan.otherwise) return plan.otherwise(response);
      this.#giveUp(plan.what, `the server answered ${status}: ${errorText(response)}`, retries);
    }
  }
}
