/**
 * Middleware: counts each request against a bucket kept in the database, sets the IETF draft
 * RateLimit-Policy / RateLimit headers on the response, and refuses with 429 past the limit.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.ts";
import { AppError } from "../errors.ts";
import { consumeRateLimit } from "../db/rate-limit.ts";

/** Options of rateLimit: which bucket a request counts against, and its limit per minute. */
export interface RateLimitOptions {
  bucket(c: Context<AppEnv>): string;
  limitPerMinute(c: Context<AppEnv>): number;
  /** Name of the policy in the headers. */
  policy?: string;
}

const WINDOW_SECONDS = 60;

/** Builds the rate-limit middleware. */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler<AppEnv> {
  const policy = options.policy ?? "default";
  return async function rateLimitMiddleware(c, next) {
    const limit = options.limitPerMinute(c);
    const { db, config } = c.get("deps");
    const window = config.rateLimitWindowSeconds ?? WINDOW_SECONDS;
    const decision = await consumeRateLimit(db.sql, options.bucket(c), limit, window);
    c.header("RateLimit-Policy", `"${policy}";q=${limit};w=${window}`);
    c.header("RateLimit", `"${policy}";r=${decision.remaining};t=${decision.resetSeconds}`);
    if (!decision.allowed) {
      throw new AppError(
        "rate_limited",
        `Over the rate limit of ${limit} ${limit === 1 ? "request" : "requests"} a minute: ` +
          `retry in ${decision.retryAfterSeconds} ${
            decision.retryAfterSeconds === 1 ? "second" : "seconds"
          }.`,
        { retryAfterSeconds: decision.retryAfterSeconds },
      );
    }
    await next();
  };
}
