/**
 * Middleware: public GET answers get a short `Cache-Control` and an `ETag` made from the body; a
 * request whose `If-None-Match` holds that tag gets 304 without the body. Only 200 answers are
 * cached; a handler that sets its own Cache-Control (such as no-store) keeps it.
 */
import type { MiddlewareHandler } from "hono";
import { bytesToBase64Url } from "../base64url.ts";

/** Options of httpCache. */
export interface HttpCacheOptions {
  /** How long browsers and caches may reuse an answer without asking again. */
  maxAgeSeconds: number;
}

async function entityTag(body: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body)).slice(0, 18);
  return `"${bytesToBase64Url(digest)}"`;
}

/** Weak comparison (RFC 9110, 13.1.2): W/ prefixes do not matter for If-None-Match. */
function matches(ifNoneMatch: string | undefined, tag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const tags = ifNoneMatch.match(/(W\/)?"[^"]*"/g) ?? [];
  return tags.some((t) => t.replace(/^W\//, "") === tag);
}

/** Builds the middleware. */
export function httpCache(options: HttpCacheOptions): MiddlewareHandler {
  const policy = `public, max-age=${options.maxAgeSeconds}`;
  return async function httpCacheMiddleware(c, next) {
    await next();
    if ((c.req.method !== "GET" && c.req.method !== "HEAD") || c.res.status !== 200) return;
    if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", policy);
    if (/no-store/i.test(c.res.headers.get("Cache-Control") ?? "")) return;
    const tag = await entityTag(await c.res.clone().arrayBuffer());
    c.res.headers.set("ETag", tag);
    if (matches(c.req.header("If-None-Match"), tag)) {
      await c.res.body?.cancel();
      // Hono carries the 200's headers (ETag, Cache-Control, CORS, RateLimit) over to the 304.
      c.res = new Response(null, { status: 304 });
      c.res.headers.delete("Content-Length");
    }
  };
}
