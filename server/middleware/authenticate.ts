/** Middleware: the request must carry a valid bearer key; its principal goes on the context. */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.ts";
import { AppError } from "../errors.ts";
import { verifyApiKey } from "../auth/verify-api-key.ts";
import { apiKeyDigest } from "../auth/api-key-digest.ts";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

function unauthorized(message: string, error?: string): AppError {
  const challenge = error ? `Bearer realm="api", error="${error}"` : 'Bearer realm="api"';
  return new AppError("unauthorized", message, { headers: { "WWW-Authenticate": challenge } });
}

/** Verifies the Authorization header; `operatorKey` is the key from ADMIN_API_KEY, if any. */
export async function authenticate(
  options: { operatorKey?: string } = {},
): Promise<MiddlewareHandler<AppEnv>> {
  const operatorDigest = options.operatorKey ? await apiKeyDigest(options.operatorKey) : null;
  return async function authenticateMiddleware(c, next) {
    const header = c.req.header("Authorization");
    if (!header) {
      throw unauthorized('Send your API key in the header "Authorization: Bearer <API_KEY>".');
    }
    const match = BEARER.exec(header);
    if (!match) {
      throw unauthorized(
        'The Authorization header must be "Bearer <API_KEY>".',
        "invalid_request",
      );
    }
    const result = await verifyApiKey(c.get("deps").db.sql, match[1], operatorDigest);
    if (!result.ok) throw unauthorized(result.reason, "invalid_token");
    c.set("principal", result.principal);
    await next();
  };
}

/** A scope a key can hold. */
export type Scope = "events:write" | "searches:write" | "admin";

/** Middleware: the authenticated key must hold one of `scopes`. */
export function requireScope(...scopes: Scope[]): MiddlewareHandler<AppEnv> {
  const needed = scopes.join(" or ");
  return async function requireScopeMiddleware(c, next) {
    const principal = c.get("principal");
    if (!scopes.some((scope) => principal.scopes.includes(scope))) {
      throw new AppError(
        "forbidden",
        `The API key ${principal.prefix} lacks the scope ${needed}; use a key created with it.`,
      );
    }
    await next();
  };
}
