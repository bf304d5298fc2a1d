/**
 * One API request made patiently: paced by the RateLimit fields, retried on 429, 5xx, 408,
 * timeouts and dropped connections; 401 and 403 stop at once. Used by --sync's listing and
 * deleting, which are safe to repeat.
 */
import { AuthError, GaveUpError, UsageError } from "../errors.ts";
import { type ApiClient, type ApiResponse, errorText, TransportError } from "./api-client.ts";
import { backoffMs, sleep } from "./backoff.ts";
import {
  paceDelayMs,
  type RateLimitState,
  readRateLimit,
  retryAfterSeconds,
} from "./rate-limit.ts";

const MAX_RETRY_AFTER_S = 900;

/** How patient to be, and who hears about the waiting. */
export interface Patience {
  maxRetries: number;
  onWait?: (ms: number, reason: string) => void;
  /** Time spent waiting, added up. */
  waited: { ms: number };
}

/** Requests that share one rate-limit state (one key). */
export class RetryingRequests {
  #rate: RateLimitState | null = null;

  constructor(readonly client: ApiClient, readonly patience: Patience) {}

  async #wait(ms: number, reason: string): Promise<void> {
    if (ms <= 0) return;
    this.patience.onWait?.(ms, reason);
    this.patience.waited.ms += ms;
    await sleep(ms);
  }

  /**
   * Sends until the server decides; returns its 2xx or 4xx answer (other than 401, 403, 408 and
   * 429). `what` names the request in messages ("list your events").
   */
  async send(
    method: "GET" | "POST",
    path: string,
    options: { body?: unknown; what: string },
  ): Promise<ApiResponse> {
    let retries = 0;
    const retry = async (why: string, waitMs: number) => {
      if (retries >= this.patience.maxRetries) {
        throw new GaveUpError(
          `Cannot ${options.what}: ${why}; gave up after ${retries} retries (--max-retries)`,
        );
      }
      retries++;
      await this.#wait(waitMs, why);
    };
    for (;;) {
      await this.#wait(paceDelayMs(this.#rate), "rate limit");
      if (this.#rate && this.#rate.remaining <= 0) this.#rate = null;
      let response: ApiResponse;
      try {
        response = await this.client.send(method, path, options.body);
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        await retry(error.message, backoffMs(retries));
        continue;
      }
      this.#rate = readRateLimit(response) ?? this.#rate;
      const status = response.status;
      if (status === 401) {
        throw new AuthError(
          `The server refused the API key (401): ${
            errorText(response)
          }. Check --api-key or EVENTS_API_KEY.`,
        );
      }
      if (status === 403) {
        throw new AuthError(
          `The API key may not ${options.what} (403): ${
            errorText(response)
          }. It needs the events:write scope.`,
        );
      }
      if (status === 404 && typeof response.body !== "object") {
        throw new UsageError(
          `Cannot ${options.what}: ${this.client.baseUrl}${path} answered 404; check --api-url (the server may be older than --sync)`,
        );
      }
      if (status === 429) {
        const after = retryAfterSeconds(response);
        if (after !== null && after > MAX_RETRY_AFTER_S) {
          throw new GaveUpError(`Cannot ${options.what}: the server asks to wait ${after} s`);
        }
        await retry("rate limited (429)", after === null ? backoffMs(retries) : after * 1000);
        continue;
      }
      if (status === 408 || status >= 500) {
        await retry(`the server answered ${status}: ${errorText(response)}`, backoffMs(retries));
        continue;
      }
      return response;
    }
  }
}
