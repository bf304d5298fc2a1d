/**
 * Nothing a client sends crashes the MCP endpoint or leaks internals: malformed JSON-RPC, unknown
 * methods and tools, wrong types, huge strings and bodies, batches, other HTTP methods, and
 * browser requests from origins the operator has not allowed. Afterwards a real client still
 * works.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { startTestServer, type TestServer } from "../../dev-support/test-server.ts";
import { pushShowcase } from "./seed-events.ts";
import { connectClient, errorMessage, type Json, postRaw } from "./support.ts";

const LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
const call = (args: unknown, name = "search_events") =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name, arguments: args },
  });

/** The JSON-RPC message of a response, sent as JSON or as one SSE event. */
function message(text: string): Json {
  const data = text.startsWith("{") ? text : /^data: (.*)$/m.exec(text)?.[1];
  assert.ok(data, `no JSON-RPC message in ${text.slice(0, 200)}`);
  return JSON.parse(data);
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] malformed JSON-RPC gets JSON-RPC errors, never a crash`, async () => {
    const server = await startTestServer(kind);
    try {
      const cases: [string, number, number][] = [
        ["{not json", 400, -32700],
        ["", 400, -32700],
        ["[]", 400, -32600],
        ["42", 400, -32600],
        ["null", 400, -32600],
        ['{"foo": 1}', 400, -32600],
        ["[".repeat(20_000) + "]".repeat(20_000), 400, -32600],
      ];
      for (const [body, status, code] of cases) {
        const res = await postRaw(server.url, body);
        assert.equal(res.status, status, body.slice(0, 20));
        assert.equal(message(res.text).error.code, code, body.slice(0, 20));
      }
      const unknownMethod = await postRaw(server.url, '{"jsonrpc":"2.0","id":1,"method":"nope"}');
      assert.equal(message(unknownMethod.text).error.code, -32601);
      const unknownTool = message((await postRaw(server.url, call({}, "drop_tables"))).text);
      assert.equal(unknownTool.error.code, -32602);
      assert.match(unknownTool.error.message, /Tool drop_tables not found/);
      const nameNotString = message(
        (await postRaw(
          server.url,
          '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}',
        )).text,
      );
      assert.equal(nameNotString.error.code, -32602);
      const argumentsArray = message((await postRaw(server.url, call([1, 2]))).text);
      assert.equal(argumentsArray.error.code, -32602);

      // A batch of a hundred searches would cost one request of the rate limit: refused.
      const batch = JSON.stringify(
        Array.from({ length: 11 }, (_, i) => ({ ...JSON.parse(call({})), id: i })),
      );
      const refused = await postRaw(server.url, batch);
      assert.equal(refused.status, 400);
      assert.match(message(refused.text).error.message, /at most 10 messages/);

      const plain = await postRaw(server.url, LIST, { "Content-Type": "text/plain" });
      assert.equal(plain.status, 415);
      for (const method of ["GET", "DELETE", "PUT"]) {
        const res = await fetch(`${server.url}/mcp`, { method });
        assert.equal(res.status, 405, method);
        await res.body?.cancel();
      }
      await stillServes(server);
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] huge strings and wrong types are tool errors that say how to fix the call`, async () => {
    const server = await startTestServer(kind);
    try {
      await pushShowcase(server);
      const huge = await postRaw(server.url, call({ query: "x".repeat(1_000_000) }));
      assert.equal(huge.status, 413);

      const client = await connectClient(server.url, "2026-07-28");
      try {
        const fails = async (args: unknown, pattern: RegExp, tool = "search_events") => {
          const text = errorMessage(await client.callTool(tool, args));
          assert.match(text, pattern);
          assert.doesNotMatch(text, /postgres|sql|stack|\.ts:\d/i, "no internals");
        };
        await fails({ query: "x".repeat(10_000) }, /query may be at most 500 characters/);
        await fails({ city: "B".repeat(1000) }, /city may be at most 100 characters/);
        await fails({ timezone: "Z".repeat(5000) }, /timezone may be at most 64/);
        await fails({ cursor: "c".repeat(5000) }, /cursor is not one this server issued/);
        await fails({ query: "nul\u0000byte" }, /query must not contain NUL/);
        await fails({ free: "yes" }, /free must be true or false/);
        await fails({ limit: 1e308 }, /limit must be a whole number from 1 to 50/);
        await fails({ limit: 2.5 }, /limit must be a whole number/);
        await fails({ near: "Berlin" }, /expected object|near/);
        await fails({ near: { latitude: "52", longitude: 13 } }, /near.latitude must be a number/);
        await fails({ from: "9999999-01-01" }, /not a date/);
        await fails({ from: "0000-01-01" }, /not a date/);
        await fails({ when: "today", to: "2027-01-01" }, /either when or from\/to/);
        await fails({ from: "2027-02-01", to: "2027-01-01" }, /from is after to/);
        await fails({ id: ["x"] }, /id must be an event id/, "get_event");
        await fails({ id: "' OR 1=1 --" }, /id must be an event id/, "get_event");
        await fails({ id: "x".repeat(10_000) }, /id must be an event id/, "get_event");

        // Odd but valid text is searched, not refused and not a crash.
        for (const query of ["\uD800 lone surrogate", "))) OR ((", "!@#$%^&*", "ü 中文 🦀"]) {
          const result = await client.callTool("search_events", { query, mode: "text" });
          assert.notEqual(result.isError, true, `${query}: ${JSON.stringify(result.content)}`);
        }
        // Extreme coordinates are valid.
        const pole = await client.callTool("search_events", {
          near: { latitude: -90, longitude: 180, radius_km: 1000 },
        });
        assert.notEqual(pole.isError, true);
      } finally {
        await client.close();
      }
      await stillServes(server);
    } finally {
      await server.close();
    }
  });
}

Deno.test("[pglite] a browser page from another origin is refused; localhost and allowed origins pass, with CORS", async () => {
  const server = await startTestServer("pglite", { mcpAllowedOrigins: ["assistant.example"] });
  try {
    for (const origin of ["https://evil.example", "null", "http://assistant.example.evil.test"]) {
      const res = await postRaw(server.url, LIST, { Origin: origin });
      assert.equal(res.status, 403, origin);
      const error = message(res.text).error;
      assert.match(error.message, /Invalid Origin.*MCP_ALLOWED_ORIGINS/);
    }
    for (
      const origin of ["http://localhost:5173", "http://127.0.0.1", "https://assistant.example"]
    ) {
      const res = await postRaw(server.url, LIST, { Origin: origin });
      assert.equal(res.status, 200, origin);
      assert.equal(message(res.text).result.tools.length, 4);
    }
    // An allowed page may read the answers (CORS), and its preflight says what it may send.
    const allowed = await postRaw(server.url, LIST, { Origin: "https://assistant.example" });
    assert.equal(allowed.headers.get("Access-Control-Allow-Origin"), "https://assistant.example");
    const preflight = await fetch(`${server.url}/mcp`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://assistant.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, mcp-protocol-version",
      },
    });
    await preflight.body?.cancel();
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("Access-Control-Allow-Origin"), "https://assistant.example");
    assert.match(
      preflight.headers.get("Access-Control-Allow-Headers") ?? "",
      /Mcp-Protocol-Version/,
    );
    const refusedPreflight = await fetch(`${server.url}/mcp`, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    await refusedPreflight.body?.cancel();
    assert.equal(refusedPreflight.status, 403);
    assert.equal(refusedPreflight.headers.get("Access-Control-Allow-Origin"), null);
    // No Origin (every non-browser client) passes, and gets no CORS headers.
    const plain = await postRaw(server.url, LIST);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get("Access-Control-Allow-Origin"), null);
  } finally {
    await server.close();
  }
});

Deno.test("[pglite] /mcp is rate limited per client address like the public API", async () => {
  const server = await startTestServer("pglite", { publicRateLimitPerMinute: 3 });
  try {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await postRaw(server.url, LIST)).status);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    const limited = await postRaw(server.url, LIST);
    assert.ok(Number(limited.headers.get("Retry-After")) > 0);
    assert.match(limited.headers.get("RateLimit-Policy") ?? "", /q=3/);
  } finally {
    await server.close();
  }
});

/** A real client can still list the tools and search. */
async function stillServes(server: TestServer) {
  const client = await connectClient(server.url, "2025 (sdk 1.x)");
  try {
    assert.equal((await client.listTools()).length, 4);
    const result = await client.callTool("search_events", { limit: 1 });
    assert.notEqual(result.isError, true);
  } finally {
    await client.close();
  }
}
