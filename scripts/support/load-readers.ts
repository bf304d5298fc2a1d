/**
 * The readers of a load benchmark, each pausing between requests as people and assistants do:
 * visitors browsing the site (home, its page 2 by cursor, a search, an event from the results),
 * programs calling /api/v1/search, and an assistant calling the MCP tool search_events through
 * the SDK's client. Each reader comes from its own address (X-Forwarded-For, which the server
 * reads only with TRUST_PROXY=true), so the per-address public rate limit applies to each as it
 * would behind a proxy.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type LoadContext, pause, running, send } from "./load-requests.ts";

export const SITE_KINDS = [
  "page: home",
  "page: home, page 2 (cursor)",
  "page: search",
  "page: event",
];
export const API_KIND = "GET /api/v1/search";
export const MCP_KIND = "MCP search_events";

const QUERIES = [
  "rust",
  "kubernetes workshop",
  "machine learning",
  "data engineering meetup",
  "security",
  "web performance",
  "cloud",
  "hands-on session about databases",
  "typescript conference",
  "observability",
];
const CITIES = ["Berlin", "London", "Paris", "Tokyo"];

/** A reader's own pseudo-random choices, so that runs are comparable. */
function chooser(seed: number) {
  let s = seed >>> 0;
  const random = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  return {
    random,
    pick: <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)],
  };
}

/** The think time, give or take half, so readers do not march in step. */
function think(ctx: LoadContext, random: () => number): Promise<void> {
  return pause(ctx, ctx.thinkMs * (0.5 + random()));
}

const isPage = (html: string) => html.includes("</html>") ? null : "not a whole page";

/** A visitor browsing the site until the run ends. */
export async function visitorLoop(ctx: LoadContext, o: { address: string; seed: number }) {
  const { random, pick } = chooser(o.seed);
  const init = { headers: { "X-Forwarded-For": o.address, Accept: "text/html" } };
  const page = (kind: string, path: string) => send(ctx, { kind, path, init, check: isPage });
  while (running(ctx)) {
    const home = await page(SITE_KINDS[0], "/");
    const next = home && /<a href="([^"]+)" rel="next">/.exec(home)?.[1]?.replaceAll("&amp;", "&");
    await think(ctx, random);
    if (next) {
      await page(SITE_KINDS[1], next);
      await think(ctx, random);
    }
    const city = random() < 0.3 ? `&city=${pick(CITIES)}` : "";
    const results = await page(SITE_KINDS[2], `/?q=${encodeURIComponent(pick(QUERIES))}${city}`);
    await think(ctx, random);
    const ids = [...(results ?? home ?? "").matchAll(/href="\/events\/([0-9a-f-]{36})"/g)]
      .map((m) => m[1]);
    if (ids.length > 0) {
      await page(SITE_KINDS[3], `/events/${pick(ids)}`);
      await think(ctx, random);
    }
  }
}

/** A program searching through the HTTP API until the run ends. */
export async function apiSearchLoop(ctx: LoadContext, o: { address: string; seed: number }) {
  const { random, pick } = chooser(o.seed);
  const init = { headers: { "X-Forwarded-For": o.address } };
  while (running(ctx)) {
    const params = new URLSearchParams({ q: pick(QUERIES), mode: "text", limit: "20" });
    if (random() < 0.3) params.set("city", pick(CITIES));
    await send(ctx, {
      kind: API_KIND,
      path: `/api/v1/search?${params}`,
      init,
      check: (body) => Array.isArray(JSON.parse(body).data) ? null : "no data array",
    });
    await think(ctx, random);
  }
}

/**
 * An assistant searching through the MCP SDK's client (2026-07-28 revision, which also checks
 * every result against the tool's output schema) until the run ends; a third of its searches
 * go on to the next page.
 */
export async function mcpSearchLoop(ctx: LoadContext, o: { address: string; seed: number }) {
  const { random, pick } = chooser(o.seed);
  const client = new Client({ name: "bench-load", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  const fromAddress = (url: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.set("X-Forwarded-For", o.address);
    const timeout = AbortSignal.timeout(ctx.timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return fetch(url, { ...init, headers, signal });
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", ctx.baseUrl), { fetch: fromAddress }),
  );
  try {
    while (running(ctx)) {
      const args: Record<string, unknown> = { query: pick(QUERIES), mode: "text", limit: 10 };
      const first = await callSearch(ctx, client, args);
      await think(ctx, random);
      if (first?.next_cursor && random() < 1 / 3 && running(ctx)) {
        await callSearch(ctx, client, { ...args, cursor: first.next_cursor });
        await think(ctx, random);
      }
    }
  } finally {
    await client.close();
  }
}

/** One search_events call, timed and recorded; its structured result, or null. */
async function callSearch(
  ctx: LoadContext,
  client: Client,
  args: Record<string, unknown>,
): Promise<{ next_cursor?: string | null } | null> {
  const started = performance.now();
  try {
    const result = await client.callTool({ name: "search_events", arguments: args }, {
      timeout: ctx.timeoutMs,
      signal: ctx.signal,
    });
    if (result.isError) {
      const text = JSON.stringify(result.content).slice(0, 80);
      ctx.recorder.record(MCP_KIND, started, { ok: false, cause: `tool error ${text}` });
      return null;
    }
    ctx.recorder.record(MCP_KIND, started, { ok: true, status: 200 });
    return result.structuredContent as { next_cursor?: string | null };
  } catch (err) {
    if (ctx.signal.aborted) return null;
    const message = err instanceof Error ? err.message : String(err);
    if (/\b429\b/.test(message)) {
      ctx.recorder.record(MCP_KIND, started, { ok: false, rateLimited: true, status: 429 });
      await pause(ctx, 1000);
      return null;
    }
    ctx.recorder.record(MCP_KIND, started, { ok: false, cause: message.slice(0, 80) });
    return null;
  }
}
