/**
 * Property-based test of the MCP tools: generated arguments (each tool's own argument names with
 * near-miss values, wrong types, unknown names) never cause a 5xx or a JSON-RPC internal error;
 * every answer is a tool result or an invalid-params error.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { startFakeOpenAI } from "../../dev-support/fake-openai.ts";
import { postRaw } from "../mcp/support.ts";
import { fuzzRuns, fuzzSeed } from "./support/fuzz-runs.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

function message(text: string): Json {
  const data = text.startsWith("{") ? text : /^data: (.*)$/m.exec(text)?.[1];
  assert.ok(data, `no JSON-RPC message in ${text.slice(0, 300)}`);
  return JSON.parse(data);
}

const awkward = fc.oneof(
  fc.constantFrom<unknown>(
    "",
    " ",
    "today",
    "semantic",
    "2027-03-01",
    "2027-02-30",
    "2027-03-01T09:00:00+24:00",
    "Europe/Lisbon",
    "Mars/Base",
    "52.5,13.4",
    "' OR 1=1 --",
    "<img src=x onerror=alert(1)>",
    "\u0000",
    "x".repeat(101),
    0,
    -1,
    51,
    1.5,
    1e308,
    true,
    null,
    [],
    {},
  ),
  fc.uuid(),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.jsonValue({ maxDepth: 2 }),
);

for (const kind of testBackends()) {
  Deno.test(`[${kind}] property: MCP tools answer every generated argument set without failing`, async () => {
    const fake = startFakeOpenAI();
    const server = await startTestServer(kind, {
      publicRateLimitPerMinute: 10_000_000,
      embeddings: fake.embeddingSettings(16),
    });
    try {
      const key = await createApiKey(server);
      const events = Array.from(
        { length: 20 },
        (_, i) =>
          sampleEvent(i, { title: `Kotlin meetup ${i}`, city: "Lisbon", topics: ["kotlin"] }),
      );
      await postBatch(server.url, key.key, { events });
      const listed = await (await fetch(`${server.url}/api/v1/events?limit=3`)).json();
      const ids = listed.data.map((e: { id: string }) => e.id);
      const tools = message(
        (await postRaw(
          server.url,
          '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        )).text,
      ).result.tools as Json[];

      const callArbitrary = fc.constantFrom(...tools).chain((tool) => {
        const names = Object.keys(tool.inputSchema.properties ?? {});
        const value = fc.oneof(awkward, fc.constantFrom(...ids));
        const args = fc.oneof(
          { weight: 8, arbitrary: fc.dictionary(fc.constantFrom(...names, "unknown"), value) },
          { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
        );
        return args.map((a) => ({ name: tool.name as string, arguments: a }));
      });

      await fc.assert(
        fc.asyncProperty(callArbitrary, async (params) => {
          const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params });
          const res = await postRaw(server.url, body);
          const context = body.slice(0, 1000);
          assert.ok(res.status < 500, `${context}: ${res.status} ${res.text.slice(0, 300)}`);
          const reply = message(res.text);
          if (reply.error) {
            assert.ok(
              [-32600, -32602].includes(reply.error.code),
              `${context}: ${JSON.stringify(reply.error)}`,
            );
          } else {
            assert.ok(Array.isArray(reply.result.content), context);
            if (reply.result.isError) {
              assert.ok(reply.result.content[0]?.text, `${context}: an error without words`);
              assert.doesNotMatch(reply.result.content[0].text, /PostgresError|at .*\.ts:\d+/);
            }
          }
        }),
        { numRuns: fuzzRuns(200), seed: fuzzSeed() },
      );
    } finally {
      await server.close();
      await fake.close();
    }
  });
}
