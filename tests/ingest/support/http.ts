/**
 * HTTP helpers for the ingestion tests: every reply is checked against the documented error
 * shapes, and no request may ever get a 5xx. A base URL may be a listening server's or an
 * in-process app's (dev-support/in-process-fetch.ts).
 */
import assert from "node:assert/strict";
import type { DatabaseKind } from "../../../server/db/connect.ts";
import {
  createApiKey,
  startTestApp,
  startTestServer,
  type TestServer,
} from "../../../dev-support/test-server.ts";
import { testFetch } from "../../../dev-support/in-process-fetch.ts";

/** A reply with its parsed JSON body. */
export interface Reply {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** Checks what every reply must satisfy: no 5xx, a JSON body, the documented error shape. */
export function assertWellFormed(reply: Reply, what: string): void {
  assert.ok(reply.status < 500, `${what} got ${reply.status}: ${JSON.stringify(reply.body)}`);
  if (reply.status < 400) return;
  assert.equal(typeof reply.body, "object", `${what}: error body is not a JSON object`);
  assert.equal(typeof reply.body.error, "string", `${what}: error body lacks "error"`);
  if (reply.status === 400) {
    assert.ok(Array.isArray(reply.body.details), `${what}: 400 body lacks "details"`);
    for (const d of reply.body.details) {
      assert.ok(Array.isArray(d.path), `${what}: a detail lacks its path`);
      for (const p of d.path) assert.ok(typeof p === "string" || typeof p === "number");
      assert.equal(typeof d.message, "string", `${what}: a detail lacks its message`);
      assert.ok(d.message.length > 0);
    }
  } else {
    assert.equal(typeof reply.body.message, "string", `${what}: error body lacks "message"`);
  }
}

/** Sends a request and returns the checked reply. */
export async function send(url: string, init: RequestInit = {}): Promise<Reply> {
  const res = await testFetch(url, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    assert.fail(`${init.method ?? "GET"} ${url} answered ${res.status} with non-JSON: ${text}`);
  }
  const reply = { status: res.status, headers: res.headers, body };
  assertWellFormed(reply, `${init.method ?? "GET"} ${url}`);
  return reply;
}

/** GET on the server. */
export function get(base: string, path: string, headers: HeadersInit = {}): Promise<Reply> {
  return send(`${base}${path}`, { headers });
}

/** POST of a JSON body (a string is sent as is) with an optional bearer key. */
export function post(
  base: string,
  path: string,
  key: string | null,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const all: Record<string, string> = { "Content-Type": "application/json", ...headers };
  if (key !== null) all.Authorization = `Bearer ${key}`;
  return send(`${base}${path}`, {
    method: "POST",
    headers: all,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** POSTs a batch of events. */
export function postEvents(base: string, key: string | null, body: unknown): Promise<Reply> {
  return post(base, "/api/v1/events", key, body);
}

/** Asserts a 400 "Validation failed" and returns its details' paths. */
export function validationPaths(reply: Reply): (string | number)[][] {
  assert.equal(reply.status, 400, JSON.stringify(reply.body));
  assert.equal(reply.body.error, "Validation failed");
  // deno-lint-ignore no-explicit-any
  return reply.body.details.map((d: any) => d.path);
}

/** Asserts a 400 whose details name exactly `path` (once or more) and returns its messages. */
export function detailsAt(reply: Reply, path: (string | number)[]): string[] {
  const paths = validationPaths(reply);
  const key = JSON.stringify(path);
  assert.ok(
    paths.some((p) => JSON.stringify(p) === key),
    `expected a problem at ${key}, got ${JSON.stringify(reply.body.details)}`,
  );
  // deno-lint-ignore no-explicit-any
  return reply.body.details.filter((d: any) => JSON.stringify(d.path) === key).map((d: any) =>
    d.message
  );
}

/** Every event the public list shows for a query string, following next_cursor to the end. */
// deno-lint-ignore no-explicit-any
export async function listAll(base: string, query = ""): Promise<any[]> {
  // deno-lint-ignore no-explicit-any
  const all: any[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const sep = query === "" ? "" : "&";
    const c: string = cursor === null ? "" : `${sep}cursor=${encodeURIComponent(cursor)}`;
    const reply = await get(base, `/api/v1/events?${query}${c}`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    all.push(...reply.body.data);
    cursor = reply.body.next_cursor;
    if (cursor === null) return all;
  }
  throw new Error("Cannot list events: more than 1000 pages");
}

/** Options of serverWithKey. */
export interface ServerWithKeyOptions {
  /** The contributor the key belongs to. */
  contributor?: string;
  /** Listen on a loopback port (real HTTP) instead of serving the app in-process. */
  listening?: boolean;
}

/**
 * A server with one contributor key whose limit does not get in the way of many requests: the app
 * in-process unless `listening` (the helpers above serve both).
 */
export async function serverWithKey(
  kind: DatabaseKind,
  options: ServerWithKeyOptions = {},
): Promise<{ server: TestServer; key: string }> {
  const server = await (options.listening ? startTestServer : startTestApp)(kind);
  try {
    const { key } = await createApiKey(server, {
      contributor: options.contributor ?? "alice@example.org",
      rate_limit_per_minute: 100_000,
    });
    return { server, key };
  } catch (err) {
    await server.close();
    throw err;
  }
}
