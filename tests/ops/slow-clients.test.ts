/**
 * Clients that send slowly do not hold the server: a request whose body (or head) does not arrive
 * within REQUEST_READ_TIMEOUT_SECONDS is answered 408 and its connection closed, and a client
 * that disconnects mid-upload leaves nothing behind.
 */
import assert from "node:assert/strict";
import { createApiKey, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { httpResponseBytes, TcpFront } from "../../server/http-front/tcp-front.ts";

const READ_TIMEOUT_MS = 1_000;

/** Reads what the server sends until it closes the connection, or `limitMs` pass. */
async function readUntilClosed(conn: Deno.Conn, limitMs: number) {
  const chunks: string[] = [];
  const buffer = new Uint8Array(4096);
  let closed = false;
  const reading = (async () => {
    try {
      for (;;) {
        const n = await conn.read(buffer);
        if (n === null) break;
        chunks.push(new TextDecoder().decode(buffer.subarray(0, n)));
      }
    } catch {
      // A reset is a close too.
    }
    closed = true;
  })();
  const started = Date.now();
  while (!closed && Date.now() - started < limitMs) await new Promise((r) => setTimeout(r, 50));
  return { closed, text: chunks.join(""), reading };
}

/** Sends `bytes` one at a time, one every `everyMs`, until the server closes or they run out. */
async function trickle(conn: Deno.Conn, bytes: Uint8Array, everyMs: number, stop: () => boolean) {
  for (let i = 0; i < bytes.length && !stop(); i++) {
    try {
      await conn.write(bytes.subarray(i, i + 1));
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

Deno.test("[pglite] a body sent one byte at a time is cut off with 408 and the connection closed", async () => {
  const server = await startTestServer("pglite", { requestReadTimeoutMs: READ_TIMEOUT_MS });
  try {
    const { key } = await createApiKey(server, { rate_limit_per_minute: 1000 });
    const body = new TextEncoder().encode(JSON.stringify({ events: [sampleEvent(1)] }));
    const port = Number(new URL(server.url).port);
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(new TextEncoder().encode(
      `POST /api/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    ));
    let done = false;
    const sending = trickle(conn, body, 200, () => done);
    // Far fewer bytes than the body arrive before the bound; the answer must come well before
    // the body could have been finished (body.length * 200 ms).
    const reply = await readUntilClosed(conn, READ_TIMEOUT_MS + 10_000);
    done = true;
    await sending;
    conn.close();
    assert.ok(reply.closed, `the connection is still open; got ${JSON.stringify(reply.text)}`);
    assert.match(reply.text, /^HTTP\/1\.1 408 /);
    assert.match(reply.text, /"code":"request_timeout"/);
    assert.match(reply.text, /did not arrive within 1 s/);
    assert.match(reply.text, /\r\nconnection: close\r\n/i);
    // Nothing of the cut-off batch is stored, and the server still serves.
    const list = await fetch(`${server.url}/api/v1/events?from=2000-01-01`);
    assert.deepEqual((await list.json()).data, []);
  } finally {
    await server.close();
  }
});

Deno.test("[pglite] headers sent one byte at a time are cut off with 408, an idle connection closed", async () => {
  const server = await startTestServer("pglite", { requestReadTimeoutMs: READ_TIMEOUT_MS });
  try {
    const port = Number(new URL(server.url).port);
    const head = new TextEncoder().encode(
      "GET /api/v1/events HTTP/1.1\r\nHost: x\r\nX-Slow: " + "a".repeat(200) + "\r\n\r\n",
    );
    const slow = await Deno.connect({ hostname: "127.0.0.1", port });
    const idle = await Deno.connect({ hostname: "127.0.0.1", port });
    let done = false;
    const sending = trickle(slow, head, 200, () => done);
    const [cut, quiet] = await Promise.all([
      readUntilClosed(slow, READ_TIMEOUT_MS + 10_000),
      readUntilClosed(idle, 2 * READ_TIMEOUT_MS + 10_000),
    ]);
    done = true;
    await sending;
    slow.close();
    idle.close();
    assert.ok(cut.closed, `the slow connection is still open; got ${JSON.stringify(cut.text)}`);
    assert.match(cut.text, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.match(cut.text, /"code":"request_timeout"/);
    assert.ok(quiet.closed, "a connection that never sends a request stays open");
    assert.equal(quiet.text, "");
    // Keep-alive still works for clients that do not pause.
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/api/v1/events?limit=1`);
      assert.equal(res.status, 200);
      await res.body?.cancel();
    }
  } finally {
    await server.close();
  }
});

Deno.test("[pglite] a client that disconnects mid-upload leaves nothing stored and the server serving", async () => {
  const server = await startTestServer("pglite", { requestReadTimeoutMs: READ_TIMEOUT_MS });
  try {
    const { key } = await createApiKey(server, { rate_limit_per_minute: 1000 });
    const body = JSON.stringify({ events: [sampleEvent(1), sampleEvent(2)] });
    const port = Number(new URL(server.url).port);
    for (let i = 0; i < 5; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      await conn.write(new TextEncoder().encode(
        `POST /api/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n` +
          body.slice(0, body.length / 2),
      ));
      conn.close();
    }
    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
    const list = await fetch(`${server.url}/api/v1/events?from=2000-01-01`);
    assert.deepEqual((await list.json()).data, []);
  } finally {
    await server.close();
  }
});

Deno.test("an answer the server takes longer than the idle timeout to make still reaches the client", async () => {
  const idleMs = 300;
  const upstream = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 4 * idleMs));
    return new Response("stored");
  });
  const refusal = (status: number) => httpResponseBytes(new Response(null, { status }));
  const front = new TcpFront({
    hostname: "127.0.0.1",
    port: 0,
    upstream: upstream.addr,
    readTimeoutMs: idleMs / 2,
    idleTimeoutMs: idleMs,
    timeoutResponse: await refusal(408),
    oversizedResponses: { "request-line": await refusal(414), head: await refusal(431) },
  });
  try {
    const res = await fetch(`http://127.0.0.1:${front.addr.port}/`, { method: "POST", body: "x" });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "stored");
  } finally {
    await front.stopAccepting();
    await front.closeAll(0);
    await upstream.shutdown();
  }
});
