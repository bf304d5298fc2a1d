/** The TCP front's view of a connection: where each request's head and body begin and end. */
import assert from "node:assert/strict";
import {
  type FramePhase,
  MAX_HEAD_BYTES,
  MAX_REQUEST_LINE_BYTES,
  RequestFramer,
} from "../../server/http-front/request-framer.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** The phase after each piece of `pieces`, fed in order. */
function phases(pieces: string[]): FramePhase[] {
  const framer = new RequestFramer();
  return pieces.map((piece) => {
    framer.push(bytes(piece));
    return framer.phase;
  });
}

Deno.test("a head without a body ends its request at the blank line", () => {
  assert.deepEqual(phases(["GET / HTTP/1.1\r\nHost: x\r", "\n\r", "\n"]), [
    "head",
    "head",
    "between",
  ]);
});

Deno.test("a Content-Length body ends after exactly that many bytes", () => {
  assert.deepEqual(
    phases(["POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab", "cd", "e"]),
    ["body", "body", "between"],
  );
  assert.deepEqual(phases(["POST / HTTP/1.1\r\ncontent-length: 0\r\n\r\n"]), ["between"]);
});

Deno.test("a chunked body ends after the last chunk and its trailers", () => {
  assert.deepEqual(
    phases([
      "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
      "4;ext=1\r\nWiki\r\n",
      "5\r\npedia\r\n0\r\n",
      "Trailer: x\r\n",
      "\r\n",
    ]),
    ["body", "body", "body", "body", "between"],
  );
});

Deno.test("pipelined requests in one read are followed one after the other", () => {
  const framer = new RequestFramer();
  framer.push(bytes(
    "POST /a HTTP/1.1\r\nContent-Length: 2\r\n\r\nok" +
      "GET /b HTTP/1.1\r\n\r\n" +
      "POST /c HTTP/1.1\r\nContent-Length: 3\r\n\r\nx",
  ));
  assert.equal(framer.phase, "body");
  // head, body, between, head, between, head, body
  assert.equal(framer.changes, 7);
  framer.push(bytes("yz"));
  assert.equal(framer.phase, "between");
});

Deno.test("empty lines before a request line are skipped, not a way around the timing", () => {
  assert.deepEqual(phases(["\r\n\r\nGET / HTTP/1.1\r\n", "Host: x\r\n\r\n"]), ["head", "between"]);
});

Deno.test("a head past its bounds is oversized, and says which bound it broke", () => {
  const line = new RequestFramer();
  line.push(new TextEncoder().encode("GET /?q=" + "a".repeat(MAX_REQUEST_LINE_BYTES)));
  assert.equal(line.phase, "oversized");
  assert.equal(line.oversized, "request-line");
  const head = new RequestFramer();
  head.push(new TextEncoder().encode("GET / HTTP/1.1\r\nX: " + "a".repeat(MAX_HEAD_BYTES)));
  assert.equal(head.phase, "oversized");
  assert.equal(head.oversized, "head");
  // Just within both bounds, byte by byte: a request like any other.
  const within = new RequestFramer();
  const target = "/?q=" + "a".repeat(MAX_REQUEST_LINE_BYTES - 20);
  const fields = "X: " + "b".repeat(MAX_HEAD_BYTES - MAX_REQUEST_LINE_BYTES - 20);
  for (const byte of new TextEncoder().encode(`GET ${target} HTTP/1.1\r\n${fields}\r\n\r\n`)) {
    within.push(new Uint8Array([byte]));
  }
  assert.equal(within.phase, "between");
  assert.equal(within.oversized, null);
});

Deno.test("what the framer cannot follow becomes a tunnel", () => {
  for (
    const head of [
      "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
      "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
      "POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
      "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
      "not http at all\r\n\r\n",
    ]
  ) {
    assert.deepEqual(phases([head]), ["tunnel"], head);
  }
  assert.deepEqual(phases(["POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"]), [
    "tunnel",
  ]);
});
