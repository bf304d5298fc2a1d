/** Shared steps of the alerts tests: calling the API with a key, and a webhook receiver. */
import type { TestServer } from "../../dev-support/test-server.ts";
import { type Config, configWith } from "../../server/config.ts";

/** The alert settings of a test: the defaults with `overrides`. */
export function alertSettings(overrides: Partial<Config["alerts"]>): Config["alerts"] {
  return { ...configWith({}).alerts, ...overrides };
}

// deno-lint-ignore no-explicit-any
export type Json = any;

/** Calls the server with `key`; the status and parsed body. */
export async function call(
  server: Pick<TestServer, "fetch">,
  o: { method: string; path: string; key: string | null; body?: unknown },
): Promise<{ status: number; body: Json }> {
  const res = await server.fetch(o.path, {
    method: o.method,
    headers: {
      ...(o.key ? { Authorization: `Bearer ${o.key}` } : {}),
      ...(o.body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  const text = await res.text();
  return { status: res.status, body: text === "" ? undefined : JSON.parse(text) };
}

/** A request a receiver got. */
export interface Received {
  headers: Record<string, string>;
  body: string;
}

/**
 * A real HTTP server on loopback that records every POST and answers each with the next status
 * of `statuses` (200 once they are spent).
 */
export function startReceiver(statuses: number[] = []): {
  url: string;
  received: Received[];
  close(): Promise<void>;
} {
  const received: Received[] = [];
  const answers = [...statuses];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    received.push({ headers: Object.fromEntries(req.headers), body: await req.text() });
    return new Response("ok", { status: answers.shift() ?? 200 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/hook`,
    received,
    close: () => server.shutdown(),
  };
}

/** Waits until `check` holds, at most `timeoutMs`. */
export async function eventually(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting until ${what}`);
}
