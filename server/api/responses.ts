/**
 * Building blocks of route declarations: JSON responses, the error responses of the closed set
 * (one schema per code, so a document reader sees which `code` each status carries), and the
 * response headers the middleware adds.
 */
import { z } from "zod";
import { ErrorBody, ValidationErrorBody } from "../../shared/api-schemas.ts";
import type { ErrorCode } from "../errors.ts";

/** A JSON response with `schema`. */
export function json<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Response headers, as components of the document. */
export const HEADERS = {
  RateLimit: {
    description:
      'Requests left in the window and seconds until it is full again, such as "default";r=59;t=1.',
    required: true,
    schema: { type: "string" },
  },
  "RateLimit-Policy": {
    description: 'The limit and its window in seconds, such as "default";q=60;w=60.',
    required: true,
    schema: { type: "string" },
  },
  "Retry-After": {
    description: "Seconds to wait before the next request can succeed.",
    required: true,
    schema: { type: "integer", minimum: 1 },
  },
  "WWW-Authenticate": {
    description: "The Bearer challenge, saying why the key was refused.",
    required: true,
    schema: { type: "string", pattern: "^Bearer" },
  },
  ETag: {
    description: "Validator of this answer: send it as If-None-Match to get 304 while it holds.",
    required: true,
    schema: { type: "string" },
  },
  "Cache-Control": {
    description: "How long a cache may keep the answer.",
    required: true,
    schema: { type: "string" },
  },
  "Access-Control-Allow-Origin": {
    description: "Public reads may be made from any web page.",
    required: true,
    schema: { type: "string", const: "*" },
  },
} as const;

/** Names of the response headers. */
export type HeaderName = keyof typeof HEADERS;

/** References to the named header components. */
export function headers(...names: HeaderName[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}

const ERROR_SCHEMAS: Partial<Record<ErrorCode, { id: string; status: number }>> = {
  unauthorized: { id: "Unauthorized", status: 401 },
  forbidden: { id: "Forbidden", status: 403 },
  not_found: { id: "NotFound", status: 404 },
  request_timeout: { id: "RequestTimeout", status: 408 },
  conflict: { id: "Conflict", status: 409 },
  review_budget_exceeded: { id: "ReviewBudgetExceeded", status: 409 },
  saved_searches_limit: { id: "SavedSearchesLimit", status: 409 },
  email_not_verified: { id: "EmailNotVerified", status: 409 },
  payload_too_large: { id: "PayloadTooLarge", status: 413 },
  uri_too_long: { id: "UriTooLong", status: 414 },
  unsupported_media_type: { id: "UnsupportedMediaType", status: 415 },
  rate_limited: { id: "RateLimited", status: 429 },
  request_header_fields_too_large: { id: "RequestHeaderFieldsTooLarge", status: 431 },
  internal: { id: "InternalError", status: 500 },
  service_unavailable: { id: "ServiceUnavailable", status: 503 },
};

const errorSchemas = new Map<ErrorCode, z.ZodType>();

/** The body of an error answer with `code`, as a named schema. */
export function errorSchema(code: ErrorCode): z.ZodType {
  let schema = errorSchemas.get(code);
  if (!schema) {
    const named = ERROR_SCHEMAS[code];
    if (!named) throw new Error(`Cannot describe error ${code}: it has no schema name`);
    schema = code === "rate_limited"
      ? ErrorBody.extend({
        code: z.literal(code),
        retry_after: z.number().int().min(1).meta({ description: "Seconds to wait." }),
      })
      : code === "service_unavailable"
      ? ErrorBody.extend({ code: z.literal(code) })
      : ErrorBody.omit({ retry_after: true }).extend({ code: z.literal(code) });
    schema = schema.meta({ id: named.id });
    errorSchemas.set(code, schema);
  }
  return schema;
}

/** An error response: the error body with `code`, and optionally its headers. */
export function errorResponse(
  code: ErrorCode,
  description: string,
  withHeaders: HeaderName[] = [],
) {
  return {
    description,
    content: { "application/json": { schema: errorSchema(code) } },
    ...(withHeaders.length > 0 ? { headers: headers(...withHeaders) } : {}),
  };
}

/** An error response that carries one of several codes of one status. */
export function errorResponseOf(codes: ErrorCode[], description: string) {
  const schemas = codes.map(errorSchema);
  const schema = schemas.length === 1 ? schemas[0] : z.union(schemas);
  return { description, content: { "application/json": { schema } } };
}

/** The 400 answer: the spec's validation error shape. */
export function validationFailed(description: string) {
  return json(ValidationErrorBody, description);
}
