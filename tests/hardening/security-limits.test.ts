/**
 * Every size beyond its limit is refused early with a clear error: bodies (the push, operator
 * requests, MCP, the site's forms) are answered before they are read, query parameters and page
 * sizes name the parameter, and request heads past the HTTP layer's bound never reach the app.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestServer, type TestServer } from "../../dev-support/test-server.ts";

/** Sends `head` and `sent` bytes of a body that claims `claimed`, then reads the answer. */
async function rawRequest(
  server: TestServer,
  options: { head: string; sent?: number },
): Promise<string> {
  const conn = await Deno.connect({
    hostname: "127.0.0.1",
    port: Number(new URL(server.url).port),
  });
  // A bound, not a measurement: a server that waits for the rest of the body never answers.
  const giveUp = setTimeout(() => conn.close(), 20_000);
  try {
    const body = "a".repeat(options.sent ?? 0);
    // Writing may fail once the server has answered and closed: the answer is what counts.
    await conn.write(new TextEncoder().encode(options.head + body)).catch(() => {});
    const chunks: string[] = [];
    const buf = new Uint8Array(16_384);
    const decoder = new TextDecoder();
    for (let i = 0; i < 100; i++) {
      const n = await conn.read(buf).catch(() => null);
      if (!n) break;
      chunks.push(decoder.decode(buf.subarray(0, n), { stream: true }));
      if (answerComplete(chunks.join(""))) break;
    }
    return chunks.join("") || "(no answer: the server waited for the body)";
  } finally {
    clearTimeout(giveUp);
    try {
      conn.close();
    } catch {
      // Closed by the bound above.
    }
  }
}

/** Whether `text` holds a whole answer: its head, and as much body as its Content-Length says. */
function answerComplete(text: string): boolean {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
  return !length || new TextEncoder().encode(text.slice(end + 4)).length >= Number(length[1]);
}

function post(host: string, path: string, length: number, headers: string): string {
  return `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${length}\r\n${headers}` +
    "Connection: close\r\n\r\n";
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] security: sizes beyond their limits are refused early`, async (t) => {
    const server = await startTestServer(kind);
    const origin = `Origin: ${server.url}\r\n`;
    try {
      const writer = await createApiKey(server);
      await t.step("a body claiming more than its limit is refused before it is sent", async () => {
        // 100 MB announced, 1 KB sent: an answer now proves the server did not wait to read it.
        const cases: [string, string, RegExp][] = [
          [
            "/api/v1/events",
            `Authorization: Bearer ${writer.key}\r\nContent-Type: application/json\r\n`,
            /413/,
          ],
          [
            "/api/v1/admin/keys",
            `Authorization: Bearer ${server.adminKey}\r\nContent-Type: application/json\r\n`,
            /413/,
          ],
          [
            "/mcp",
            "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n",
            /413/,
          ],
          ["/sign-in", `${origin}Content-Type: application/x-www-form-urlencoded\r\n`, /413/],
          ["/sign-up", `${origin}Content-Type: application/x-www-form-urlencoded\r\n`, /413/],
        ];
        for (const [path, headers, status] of cases) {
          const answer = await rawRequest(server, {
            head: post(new URL(server.url).host, path, 100_000_000, headers),
            sent: 1024,
          });
          assert.match(answer.split("\r\n")[0], status, `${path}: ${answer.slice(0, 300)}`);
        }
      });

      await t.step("a form body sent in chunks is cut off at its limit", async () => {
        const chunks = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode("email="));
            for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(8_192).fill(97));
            controller.close();
          },
        });
        const res = await fetch(`${server.url}/sign-in`, {
          method: "POST",
          headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
          body: chunks,
        });
        assert.equal(res.status, 413);
        assert.match(await res.text(), /The form is larger than 65536 bytes/);
      });

      await t.step(
        "query parameters and page sizes over their limits name the parameter",
        async () => {
          const cases: [string, string[]][] = [
            [`/api/v1/events?q=${"a".repeat(20_000)}`, ["query", "q"]],
            [`/api/v1/events?city=${"a".repeat(501)}`, ["query", "city"]],
            ["/api/v1/events?limit=101", ["query", "limit"]],
            ["/api/v1/events?limit=1000000", ["query", "limit"]],
            ["/api/v1/search?q=rust&limit=101", ["query", "limit"]],
            [`/api/v1/search?q=${"rust ".repeat(200)}`, ["query", "q"]],
          ];
          for (const [path, expected] of cases) {
            const res = await fetch(`${server.url}${path}`);
            const body = await res.json();
            assert.equal(res.status, 400, path.slice(0, 80));
            assert.deepEqual(body.details[0].path, expected, path.slice(0, 80));
          }
          const feed = await fetch(`${server.url}/events.ics?limit=100000`);
          assert.equal(feed.status, 400);
          await feed.body?.cancel();
        },
      );

      await t.step("request heads past the HTTP layer's bound get 414 or 431 in JSON", async () => {
        const huge: [string, number, string][] = [
          [
            `GET /api/v1/events?q=${"a".repeat(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
            414,
            "uri_too_long",
          ],
          [
            `GET /api/v1/events HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(200_000)}\r\n\r\n`,
            431,
            "request_header_fields_too_large",
          ],
          [
            `GET /api/v1/events HTTP/1.1\r\nHost: x\r\n${"X-A: bbbbbbbbbb\r\n".repeat(4_000)}\r\n`,
            431,
            "request_header_fields_too_large",
          ],
          [
            `GET /api/v1/events HTTP/1.1\r\nHost: x\r\n${"X-A: b\r\n".repeat(101)}\r\n`,
            431,
            "request_header_fields_too_large",
          ],
          [
            // Far beyond the bound: the answer still arrives whole, not cut off by a reset.
            `GET /sign-in HTTP/1.1\r\nHost: x\r\nCookie: ${"c".repeat(3_000_000)}\r\n\r\n`,
            431,
            "request_header_fields_too_large",
          ],
        ];
        for (const [head, status, code] of huge) {
          const answer = await rawRequest(server, { head });
          assert.equal(answer.split("\r\n")[0].split(" ")[1], String(status), answer.slice(0, 200));
          assert.match(answer, /\r\ncontent-type: application\/json\r\n/i);
          assert.match(answer, /\r\nconnection: close\r\n/i);
          const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
          assert.equal(body.code, code);
          assert.match(
            body.message,
            status === 414
              ? /longer than 32 KiB: shorten the URL/
              : /longer than 48 KiB or has more than 100 header fields: send fewer/,
          );
        }
        const long = await fetch(`${server.url}/api/v1/events`, {
          method: "POST",
          headers: { Authorization: `Bearer evk_${"a".repeat(10_000)}` },
          body: "{}",
        });
        assert.equal(long.status, 401);
        assert.equal((await long.json()).code, "unauthorized");
        const still = await fetch(`${server.url}/api/v1/events`);
        assert.equal(still.status, 200, "the server still serves");
        await still.body?.cancel();
      });
    } finally {
      await server.close();
    }
  });
}
