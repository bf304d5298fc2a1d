/**
 * Answers whatever a handler threw, with the shapes of server/errors.ts. Here, above the data
 * layer, a lost database connection (a restart, a failover) becomes a 503 to retry rather than a
 * bug: errors.ts itself knows nothing of databases.
 */
import type { Context } from "hono";
import { AppError, errorBody, errorHeaders, toAppError } from "./errors.ts";
import { isDatabaseUnavailable } from "./db/connection-errors.ts";

/** The AppError a thrown value is answered with. */
export function answeredError(err: unknown): AppError {
  if (!(err instanceof AppError) && isDatabaseUnavailable(err)) {
    return new AppError(
      "service_unavailable",
      "The database is unavailable for a moment (restarting or failing over): send the request " +
        "again in a few seconds",
      { retryAfterSeconds: 2 },
    );
  }
  return toAppError(err);
}

/** The JSON response for any thrown value; unknown errors become a 500 without internals. */
export function errorResponse(c: Context, err: unknown): Response {
  const error = answeredError(err);
  for (const [name, value] of Object.entries(errorHeaders(error))) c.header(name, value);
  return c.json(errorBody(error), error.status as 400);
}
