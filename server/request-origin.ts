/**
 * The origin visitors use: the request's own, or behind a trusted proxy (TRUST_PROXY) the
 * forwarded protocol and host. Links in feeds, pages, structured data and MCP answers, and the
 * site's cookie and form checks, all need the same one.
 */
import type { Context } from "hono";
import type { AppEnv } from "./app-env.ts";

/** A host name or address with an optional port: nothing a forged header could smuggle in. */
const FORWARDED_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$/;

/** The origin of `request`; its forwarded one when `trustProxy` says a proxy sets those headers. */
export function requestOrigin(request: Request, trustProxy: boolean): string {
  const url = new URL(request.url);
  if (trustProxy) {
    const proto = firstHop(request.headers.get("X-Forwarded-Proto"));
    const host = firstHop(request.headers.get("X-Forwarded-Host"));
    if (proto === "http" || proto === "https") url.protocol = `${proto}:`;
    if (host && FORWARDED_HOST.test(host)) url.host = host;
  }
  return url.origin;
}

/** The origin of the request on `c`, by the server's TRUST_PROXY setting. */
export function siteOrigin(c: Context): string {
  return requestOrigin(c.req.raw, (c as Context<AppEnv>).get("deps").config.trustProxy);
}

function firstHop(value: string | null): string | undefined {
  return value?.split(",")[0]?.trim();
}
