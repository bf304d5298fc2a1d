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
  readRequestBody,
  validateOriginHeader,
} from "@modelcontextprotocol/server";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { createEventsMcpServer } from "./events-mcp-server.ts";
import { requestOrigin } from "../request-origin.ts";
import { logProblem } from "../log-line.ts";
import type { Site } from "./event-views.ts";

/** Tool arguments are small: a request body past this is refused before it is parsed. */
const MAX_BODY_BYTES = 64 * 1024;
/**
 * 2025-03 clients may send JSON-RPC batches. The rate limit counts HTTP requests, so a batch of a
 * hundred searches must not cost the same as one.
 */
const MAX_BATCH = 10;

/** The /mcp handler for the Hono app. */
export function mcpEndpoint(deps: AppDeps): (c: Context<AppEnv>) => Promise<Response> {
  const allowedOrigins = [...localhostAllowedOrigins(), ...deps.config.mcpAllowedOrigins];
  const handler = createMcpHandler(
    ({ requestInfo }) => createEventsMcpServer(deps, siteOf(requestInfo, deps.config.trustProxy)),
    {
      legacy: "stateless",
      maxRequestBodySize: MAX_BODY_BYTES,
      onerror: (err) => {
        // Rejected requests (malformed JSON-RPC and the like) land here: a request log line.
        if (!deps.config.logRequests) return;
        logProblem({ level: "warn", mcp: err.message.slice(0, 300) });
      },
    },
  );
  return async function mcp(c) {
    const origin = validateOriginHeader(c.req.header("Origin"), allowedOrigins);
    if (!origin.ok) {
      return refused(
        403,
        `${origin.message}. Browser pages may use this MCP server only from the origins its ` +
          "operator allows (MCP_ALLOWED_ORIGINS); other clients send no Origin header.",
      );
    }
    // From here on the request is from no browser or from an allowed page, which may read it.
    const page = origin.origin;
    if (c.req.method === "OPTIONS" && page) {
      return withCors(new Response(null, { status: 204 }), page, true);
    }
    const request = detachedFromSignal(c.req.raw);
    if (c.req.method === "POST" && await batchSize(request) > MAX_BATCH) {
      return refused(
        400,
        `A JSON-RPC batch may hold at most ${MAX_BATCH} messages: send the rest separately.`,
      );
    }
    const response = await handler.fetch(request);
    return page ? withCors(response, page, false) : response;
  };
}

/** CORS for a page of an allowed origin (a preflight also names what it may send). */
function withCors(response: Response, origin: string, preflight: boolean): Response {
  const headers = new Headers(response.headers);
  headers.set("Access-Control-Allow-Origin", origin);
  headers.append("Vary", "Origin");
  headers.set("Access-Control-Expose-Headers", "Mcp-Session-Id, Mcp-Protocol-Version");
  if (preflight) {
    headers.set("Access-Control-Allow-Methods", "POST, OPTIONS");
    headers.set(
      "Access-Control-Allow-Headers",
      "Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID",
    );
    headers.set("Access-Control-Max-Age", "600");
  }
  return new Response(response.body, { status: response.status, headers });
}

/**
 * The same request with a signal of its own. Deno.serve's request.signal still aborts after every
 * successful answer (legacy behaviour), and reading it makes Deno print a plain-text warning into
 * the JSON log. The SDK needs no abort: a client that goes away cancels the answer's stream,
 * which ends the exchange, and a call that is not streamed is bounded anyway.
 */
function detachedFromSignal(raw: Request): Request {
  return new Request(raw.url, {
    method: raw.method,
    headers: raw.headers,
    body: raw.body,
  });
}

/** How many messages the body holds; 1 for anything the SDK itself should judge. */
async function batchSize(request: Request): Promise<number> {
  // A clone, read within the size limit, leaves the original body to the SDK.
  const body = await readRequestBody(request.clone(), MAX_BODY_BYTES).catch(() => null);
  if (!body || body.tooLarge || !body.text.trimStart().startsWith("[")) return 1;
  try {
    const parsed = JSON.parse(body.text);
    return Array.isArray(parsed) ? parsed.length : 1;
  } catch {
    return 1;
  }
}

function refused(status: 400 | 403, message: string): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }, { status });
}

/** Where event pages live: this request's origin, or the proxy's when behind a trusted one. */
function siteOf(request: Request | undefined, trustProxy: boolean): Site {
  return { origin: request ? requestOrigin(request, trustProxy) : "http://localhost" };
}
