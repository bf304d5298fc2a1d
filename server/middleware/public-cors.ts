/**
 * Middleware: public reads answer cross-origin requests from any page, preflight included. No
 * credentials are involved (public reads take no key), so `*` is safe and needs no Vary.
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

/** Headers a page's script may read from a public answer. */
const EXPOSED = ["ETag", "RateLimit", "RateLimit-Policy", "Retry-After", "X-Request-Id"];

/** Builds the middleware; `maxAgeSeconds` is how long a browser may keep a preflight's answer. */
export function publicCors(options: { maxAgeSeconds?: number } = {}): MiddlewareHandler {
  return cors({
    origin: "*",
    allowMethods: ["GET", "HEAD", "OPTIONS"],
    exposeHeaders: EXPOSED,
    maxAge: options.maxAgeSeconds ?? 600,
  });
}
