/**
 * The /mcp endpoint: Streamable HTTP, stateless, no key. The SDK's handler answers clients of the
 * current protocol revision (2026-07-28, every request self-contained) and 2025-era clients
 * (`initialize` first) alike, from a fresh server per request. In front of it, the Origin check
 * the MCP specification requires against DNS rebinding: a browser page on another site must not
 * reach a server running on someone's own machine through their browser.
 */
import type { Context } from "hono";
import {
  createMcpHandler,
  localhostAllowedOrigins,
  validateOriginHeader,
} from "@modelcontextprotocol/server";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { createEventsMcpServer } from "./events-mcp-server.ts";
import type { Site } from "./event-views.ts";

/** Tool arguments are small: a request body past this is refused before it is parsed. */
const MAX_BODY_BYTES = 64 * 1024;

/** The /mcp handler for the Hono app. */
export function mcpEndpoint(deps: AppDeps): (c: Context<AppEnv>) => Promise<Response> {
  const allowedOrigins = [...localhostAllowedOrigins(), ...(deps.config.mcpAllowedOrigins ?? [])];
  const handler = createMcpHandler(
    ({ requestInfo }) => createEventsMcpServer(deps, siteOf(requestInfo, deps.config.trustProxy)),
    {
      legacy: "stateless",
      maxRequestBodySize: MAX_BODY_BYTES,
      onerror: (err) => {
        // Rejected requests (malformed JSON-RPC and the like) land here too: one short line.
        console.error(JSON.stringify({
          time: new Date().toISOString(),
          level: "warn",
          mcp: err.message.slice(0, 300),
        }));
      },
    },
  );
  return async function mcp(c) {
    const origin = validateOriginHeader(c.req.header("Origin"), allowedOrigins);
    if (!origin.ok) return originRefused(origin.message);
    return await handler.fetch(c.req.raw);
  };
}

function originRefused(reason: string): Response {
  return Response.json({
    jsonrpc: "2.0",
    id: null,
    error: {
      code: -32000,
      message: `${reason}. Browser pages may use this MCP server only from the origins its ` +
        "operator allows (MCP_ALLOWED_ORIGINS); other clients send no Origin header.",
    },
  }, { status: 403 });
}

/** Where event pages live: this request's origin, or the proxy's when behind a trusted one. */
function siteOf(request: Request | undefined, trustProxy: boolean): Site {
  const url = new URL(request?.url ?? "http://localhost/");
  if (trustProxy && request) {
    const proto = request.headers.get("X-Forwarded-Proto")?.split(",")[0]?.trim();
    const host = request.headers.get("X-Forwarded-Host")?.split(",")[0]?.trim();
    if (proto && /^https?$/.test(proto)) url.protocol = `${proto}:`;
    if (host && /^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(host)) url.host = host;
  }
  return { origin: url.origin };
}
