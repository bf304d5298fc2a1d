/**
 * The two real MCP clients the server must serve, behind one small interface: the current SDK's
 * client on the 2026-07-28 revision (stateless, no `initialize`) and the 2025-era client of the
 * v1 SDK (`initialize`, then calls), both over Streamable HTTP.
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client";
// The v1 SDK's "./*" export maps types to "*.js.d.ts", which does not exist: name the types.
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.d.ts"
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Ajv2020 from "ajv/dist/2020.js";

// deno-lint-ignore no-explicit-any
export type Json = any;

/** What a test needs of a client. */
export interface McpTestClient {
  name: string;
  listTools(): Promise<Json[]>;
  callTool(name: string, args: unknown): Promise<Json>;
  close(): Promise<void>;
}

export const CLIENT_KINDS = ["2026-07-28", "2025 (sdk 1.x)"] as const;
export type ClientKind = typeof CLIENT_KINDS[number];

/** Connects a client of `kind` to the server's /mcp endpoint. */
export async function connectClient(baseUrl: string, kind: ClientKind): Promise<McpTestClient> {
  const url = new URL("/mcp", baseUrl);
  if (kind === "2026-07-28") {
    const client = new Client({ name: "events-test", version: "1.0.0" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    });
    await client.connect(new StreamableHTTPClientTransport(url));
    return {
      name: kind,
      listTools: async () => (await client.listTools()).tools,
      // deno-lint-ignore no-explicit-any
      callTool: (name, args) => client.callTool({ name, arguments: args as any }),
      close: () => client.close(),
    };
  }
  const client = new LegacyClient({ name: "events-test-legacy", version: "1.0.0" });
  await client.connect(new LegacyTransport(url));
  return {
    name: kind,
    listTools: async () => (await client.listTools()).tools,
    // deno-lint-ignore no-explicit-any
    callTool: (name, args) => client.callTool({ name, arguments: args as any }),
    close: () => client.close(),
  };
}

const ajv = new Ajv2020.default({ allErrors: true, strict: false });

/**
 * Checks a successful result: structured content valid against the tool's declared output
 * schema (with an independent validator), and the same JSON as text content.
 */
export function assertValidResult(tool: Json, result: Json): Json {
  assert.notEqual(result.isError, true, `unexpected error: ${JSON.stringify(result.content)}`);
  const validate = ajv.compile(tool.outputSchema);
  assert.ok(
    validate(result.structuredContent),
    `${tool.name} output: ${JSON.stringify(validate.errors)}`,
  );
  const text = result.content.find((c: Json) => c.type === "text");
  assert.deepEqual(JSON.parse(text.text), result.structuredContent);
  return result.structuredContent;
}

/** Checks an error result and returns its message. */
export function errorMessage(result: Json): string {
  assert.equal(result.isError, true, `expected an error, got ${JSON.stringify(result)}`);
  return result.content.map((c: Json) => c.text).join("\n");
}

/** POSTs raw JSON-RPC to /mcp; returns status, headers and the body as text. */
export async function postRaw(
  baseUrl: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(new URL("/mcp", baseUrl), {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
