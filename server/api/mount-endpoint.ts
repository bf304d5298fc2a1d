/**
 * Mounts a declared route. Its `security` says who may call it (`[]`: anyone; bearerAuth with
 * role names: a key holding one of those scopes), and from that one declaration come both the
 * middleware that enforces it and the responses the middleware can give, so the document lists
 * every status an operation can answer.
 */
import type { OpenAPIHono, RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.ts";
import { requireScope, type Scope } from "../middleware/authenticate.ts";
import { jsonBody } from "../middleware/json-body.ts";
import { httpCache } from "../middleware/http-cache.ts";
import { publicCors } from "../middleware/public-cors.ts";
import { errorResponse, type HeaderName, headers, validationFailed } from "./responses.ts";
import {
  MAX_HEAD_BYTES,
  MAX_HEADER_FIELDS,
  MAX_REQUEST_LINE_BYTES,
} from "../http-front/request-framer.ts";

/** The middleware that guards routes, built once from the configuration. */
export interface Guards {
  /** Verifies the bearer key and puts its principal on the context. */
  authenticate: MiddlewareHandler<AppEnv>;
  /** Counts the request against the key's rate limit. */
  keyRateLimit: MiddlewareHandler<AppEnv>;
  /** Counts a public request against its client address's rate limit. */
  publicRateLimit: MiddlewareHandler<AppEnv>;
}

/** How long public reads may be cached; short, so that edits and deletes show soon. */
const PUBLIC_MAX_AGE_SECONDS = 30;

type Responses = RouteConfig["responses"];
type Response = Responses[string];

/** The scopes a route accepts (any one suffices); empty for a public route. */
export function scopesOf(route: RouteConfig): Scope[] {
  if (route.security === undefined) {
    throw new Error(`Cannot mount ${route.method} ${route.path}: it declares no security`);
  }
  return route.security.flatMap((requirement) => (requirement.bearerAuth ?? []) as Scope[]);
}

/** The responses the guards and the body reader can give on this route. */
function guardResponses(route: RouteConfig, scopes: Scope[]): Responses {
  const keyed = scopes.length > 0;
  const { request } = route;
  const responses: Responses = {};
  if (request?.query || request?.params || request?.body) {
    responses[400] = validationFailed(
      "The request is invalid: `details` lists every problem, each at its path.",
    );
  }
  if (keyed) {
    responses[401] = errorResponse(
      "unauthorized",
      "The key is missing, malformed, unknown, revoked or expired.",
      ["WWW-Authenticate"],
    );
    // Even a route that takes every scope this version grants refuses a key holding none of
    // them: the database keeps any scope name, such as one a later version adds.
    responses[403] = errorResponse("forbidden", "The key lacks the scope this operation needs.");
  }
  if (request?.body) {
    responses[413] = errorResponse("payload_too_large", "The body is larger than 4 MiB.");
    responses[415] = errorResponse(
      "unsupported_media_type",
      "The body is not sent as Content-Type: application/json.",
    );
  }
  responses[429] = errorResponse(
    "rate_limited",
    "Over the rate limit: wait the seconds of Retry-After.",
    ["Retry-After"],
  );
  // The HTTP layer's own answers (server/http-front/), given to any request before it is routed.
  responses[408] = errorResponse(
    "request_timeout",
    "The request head or body did not arrive within the read timeout; the connection is closed.",
  );
  responses[414] = errorResponse(
    "uri_too_long",
    `The request line (method and URL) is longer than ${MAX_REQUEST_LINE_BYTES / 1024} KiB; ` +
      "the connection is closed.",
  );
  responses[431] = errorResponse(
    "request_header_fields_too_large",
    `The request head is longer than ${MAX_HEAD_BYTES / 1024} KiB or has more than ` +
      `${MAX_HEADER_FIELDS} header fields; the connection is closed.`,
  );
  responses[500] = errorResponse("internal", "An unexpected failure; try again later.");
  responses[503] = errorResponse(
    "service_unavailable",
    "The database is unavailable for a moment (restarting or failing over): retry after the " +
      "seconds of Retry-After.",
    ["Retry-After"],
  );
  if (!keyed && route.method === "get") {
    responses[304] = { description: "Not modified: If-None-Match holds the current ETag." };
  }
  return responses;
}

/** Statuses the HTTP layer answers before the application sees the request: no added headers. */
const HTTP_LAYER_STATUSES = new Set(["408", "414", "431"]);

/** Headers every answer with `status` carries on this route. */
function headersFor(status: string, options: { keyed: boolean; cached: boolean }): HeaderName[] {
  const names: HeaderName[] = [];
  if (HTTP_LAYER_STATUSES.has(status)) return names;
  // A 401 is answered before the key's rate limit is known; a 500 may come before any limit.
  if (status !== "401" && status !== "500") names.push("RateLimit", "RateLimit-Policy");
  if (!options.keyed) names.push("Access-Control-Allow-Origin");
  if (options.cached && (status === "200" || status === "304")) names.push("ETag", "Cache-Control");
  return names;
}

/** The route as documented: its own responses, the guards' ones, and their headers. */
function documented(route: RouteConfig, scopes: Scope[], cached: boolean): Responses {
  const keyed = scopes.length > 0;
  const all: Responses = { ...guardResponses(route, scopes), ...route.responses };
  return Object.fromEntries(
    Object.entries(all).map(([status, response]): [string, Response] => {
      const own = "headers" in response && response.headers ? response.headers : {};
      const added = headers(...headersFor(status, { keyed, cached }));
      return [status, { ...response, headers: { ...added, ...own } }];
    }),
  );
}

/** Registers `route` with its guards, body reader and validators, and documents it. */
export function mountEndpoint<R extends RouteConfig>(
  app: OpenAPIHono<AppEnv>,
  guards: Guards,
  endpoint: { route: R; handler: RouteHandler<R, AppEnv> },
): void {
  const { route, handler } = endpoint;
  const scopes = scopesOf(route);
  const keyed = scopes.length > 0;
  const cached = !keyed && route.method === "get";
  const cors = publicCors();
  const middleware: MiddlewareHandler<AppEnv>[] = keyed
    ? [guards.authenticate, guards.keyRateLimit, requireScope(...scopes)]
    : [
      cors,
      guards.publicRateLimit,
      ...(cached ? [httpCache({ maxAgeSeconds: PUBLIC_MAX_AGE_SECONDS })] : []),
    ];
  const body = route.request?.body;
  if (body) middleware.push(jsonBody({ expected: body.description ?? "a JSON object" }));
  if (!keyed) app.options(route.path.replaceAll(/\{(\w+)\}/g, ":$1"), cors);
  const mounted = { ...route, middleware, responses: documented(route, scopes, cached) };
  // The added responses are errors the middleware throws; the handler's own types stay R's.
  app.openapi(mounted as unknown as R, handler);
}
