/**
 * The closed set of errors the API answers with, and the one place that shapes their answers:
 * status, headers and JSON body, with no framework needed (errorBody, errorHeaders). Handlers
 * throw AppError; server/error-response.ts answers whatever was thrown with these.
 */
import { HTTPException } from "hono/http-exception";
import type { ValidationDetail } from "../shared/validation-details.ts";

const STATUS = {
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  review_budget_exceeded: 409,
  saved_searches_limit: 409,
  email_not_verified: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  rate_limited: 429,
  request_header_fields_too_large: 431,
  internal: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof STATUS;

const TITLE: Record<ErrorCode, string> = {
  validation_failed: "Validation failed",
  unauthorized: "Unauthorized",
  forbidden: "Forbidden",
  not_found: "Not found",
  method_not_allowed: "Method not allowed",
  request_timeout: "Request timeout",
  conflict: "Conflict",
  review_budget_exceeded: "Over the budget of an unreviewed contributor",
  saved_searches_limit: "Too many saved searches",
  email_not_verified: "Email address not confirmed",
  payload_too_large: "Payload too large",
  uri_too_long: "URI too long",
  unsupported_media_type: "Unsupported media type",
  rate_limited: "Too many requests",
  request_header_fields_too_large: "Request header fields too large",
  internal: "Internal server error",
  service_unavailable: "Service unavailable",
};

export interface AppErrorOptions {
  details?: ValidationDetail[];
  headers?: Record<string, string>;
  retryAfterSeconds?: number;
}

/** An error with a code from the closed set; its message is shown to the client. */
export class AppError extends Error {
  constructor(readonly code: ErrorCode, message: string, readonly options: AppErrorOptions = {}) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return STATUS[this.code];
  }
}

/** A 400 with the spec's `details`. */
export function validationError(details: ValidationDetail[]): AppError {
  return new AppError("validation_failed", "Validation failed", { details });
}

/** Hono's own refusals (library middleware throws HTTPException), in our closed set. */
function fromHttpException(err: HTTPException): AppError | null {
  const code = (Object.keys(STATUS) as ErrorCode[]).find((k) => STATUS[k] === err.status);
  if (code === undefined || code === "internal") return null;
  if (code === "validation_failed") {
    return validationError([{ path: [], message: `The request is malformed: ${err.message}` }]);
  }
  return new AppError(code, err.message);
}

/** Whether a thrown value is one the API answers on purpose (not a bug worth logging). */
export function isExpectedError(err: unknown): boolean {
  return err instanceof AppError || (err instanceof HTTPException && err.status < 500);
}

/** The AppError a thrown value stands for; an unknown one is `internal`, without internals. */
export function toAppError(err: unknown): AppError {
  return (err instanceof AppError ? err : null) ??
    (err instanceof HTTPException ? fromHttpException(err) : null) ??
    new AppError("internal", "The server could not complete the request; try again later.");
}

/** The headers `error` asks for, Retry-After included. */
export function errorHeaders(error: AppError): Record<string, string> {
  const { headers = {}, retryAfterSeconds } = error.options;
  return retryAfterSeconds === undefined
    ? { ...headers }
    : { ...headers, "Retry-After": String(retryAfterSeconds) };
}

/** The JSON body of the answer to `error`. */
export function errorBody(error: AppError): Record<string, unknown> {
  const { details, retryAfterSeconds } = error.options;
  if (error.code === "validation_failed") {
    return { error: TITLE.validation_failed, details: details ?? [] };
  }
  return {
    error: TITLE[error.code],
    code: error.code,
    message: error.message,
    ...(retryAfterSeconds === undefined ? {} : { retry_after: retryAfterSeconds }),
  };
}
