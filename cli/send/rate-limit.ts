/**
 * Paces requests by the server's IETF draft RateLimit fields, so a long feed waits before it is
 * refused instead of after, and reads Retry-After when it is refused anyway.
 */
import { ErrorBody } from "../../shared/api-schemas.ts";
import { type ApiResponse, header } from "./api-client.ts";

const RetryAfterBody = ErrorBody.pick({ retry_after: true });

/** What the server said about the quota after the last answer. */
export interface RateLimitState {
  remaining: number;
  resetSeconds: number;
  quota?: number;
  windowSeconds?: number;
}

function param(value: string, name: string): number | undefined {
  const match = new RegExp(`(?:^|;)\\s*${name}=(\\d+(?:\\.\\d+)?)`).exec(value);
  return match ? Number(match[1]) : undefined;
}

/** Reads `RateLimit: "default";r=5;t=30` and `RateLimit-Policy: "default";q=60;w=60`. */
export function readRateLimit(response: ApiResponse): RateLimitState | null {
  const limit = header(response, "ratelimit");
  if (!limit) return null;
  const remaining = param(limit, "r");
  const resetSeconds = param(limit, "t");
  if (remaining === undefined || resetSeconds === undefined) return null;
  const policy = header(response, "ratelimit-policy") ?? "";
  return { remaining, resetSeconds, quota: param(policy, "q"), windowSeconds: param(policy, "w") };
}

/** Seconds a 429 asks to wait: Retry-After (seconds or HTTP date), else the body's retry_after. */
export function retryAfterSeconds(response: ApiResponse, now = Date.now()): number | null {
  const value = header(response, "retry-after");
  if (value !== undefined) {
    if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, (date - now) / 1000);
  }
  const body = RetryAfterBody.safeParse(response.body);
  return body.success ? body.data.retry_after ?? null : null;
}

/** Milliseconds to wait before the next request, given the last answer's quota. */
export function paceDelayMs(state: RateLimitState | null): number {
  if (state === null || state.remaining > 0) return 0;
  // The quota is spent: wait until the server says it refills, plus a little so as not to arrive
  // a hair early (clocks and rounding to whole seconds).
  return state.resetSeconds * 1000 + 250;
}
