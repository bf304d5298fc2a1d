/**
 * Requests for the contract test: each is sent to the test server and its answer checked against
 * the served document before the test sees it.
 */
import type { TestServer } from "../../../dev-support/test-server.ts";
import type { ContractChecker } from "./openapi-contract.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** One request to a documented operation. */
export interface Call {
  method: string;
  /** The documented path, such as /api/v1/events/{id}. */
  path: string;
  params?: Record<string, string>;
  query?: string;
  /** A JSON body (sent as application/json), or a raw body with `contentType`. */
  body?: unknown;
  raw?: BodyInit;
  contentType?: string;
  key?: string | null;
  /** The client address public requests come from (fresh for each call unless given). */
  client?: string;
  headers?: Record<string, string>;
}

/** An answer, after it passed the contract check. */
export interface Checked {
  status: number;
  headers: Headers;
  body: Json;
}

let clients = 0;

/** A client address no other call uses, so public rate limits stay out of the way. */
export function freshClient(): string {
  clients++;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
}

/** A function that sends a call and checks its answer. */
export function contractClient(
  server: TestServer,
  checker: ContractChecker,
): (call: Call) => Promise<Checked> {
  return async (call) => {
    let url = call.path;
    for (const [name, value] of Object.entries(call.params ?? {})) {
      url = url.replace(`{${name}}`, encodeURIComponent(value));
    }
    const headers: Record<string, string> = {
      "X-Forwarded-For": call.client ?? freshClient(),
      ...call.headers,
    };
    if (call.key) headers.Authorization = `Bearer ${call.key}`;
    let body: BodyInit | undefined = call.raw;
    if (call.body !== undefined) body = JSON.stringify(call.body);
    if (body !== undefined) headers["Content-Type"] = call.contentType ?? "application/json";
    const res = await fetch(`${server.url}${url}${call.query ? `?${call.query}` : ""}`, {
      method: call.method,
      headers,
      body,
    });
    const answer = { status: res.status, headers: res.headers, text: await res.text() };
    return { ...answer, body: checker.check(call.method, call.path, answer) };
  };
}
