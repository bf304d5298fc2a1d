/**
 * The server's TCP front. Deno.serve has no read timeouts (denoland/deno#3515): a client that
 * sends its headers or its body one byte a second keeps its connection, and a share of the
 * server, for as long as it likes. So clients connect here, and each connection is relayed,
 * bytes unchanged, to Deno.serve on a loopback port, while a RequestFramer follows where requests
 * begin and end. A head, a body, or a stream the framer cannot follow that takes longer than the
 * read timeout is cut off (408 when nothing was answered yet) and both connections closed; so is
 * a connection silent for the idle timeout between requests.
 */
import { type OversizedPart, RequestFramer } from "./request-framer.ts";

export interface TcpFrontOptions {
  hostname: string;
  port: number;
  /** Where Deno.serve listens, on loopback. */
  upstream: Deno.NetAddr;
  /** How long a request head, then its body, may take to arrive. */
  readTimeoutMs: number;
  /** How long a connection may stay silent between requests. */
  idleTimeoutMs: number;
  /** The whole HTTP response (408) sent to a client cut off before any answer. */
  timeoutResponse: Uint8Array;
  /** The whole HTTP responses (414, 431) to a request head past the framer's bounds. */
  oversizedResponses: Record<OversizedPart, Uint8Array>;
}

interface Relay {
  client: Deno.TcpConn;
  upstream: Deno.TcpConn;
  /** Whether no request is part-way through arriving. */
  between(): boolean;
  close(): void;
}

const BUFFER_BYTES = 64 * 1024;
/** What is read and dropped of a refused client's remaining bytes, so our answer is not reset. */
const DISCARD_BYTES = 1024 * 1024;
const DISCARD_MS = 2_000;
const REASONS: Record<number, string> = {
  408: "Request Timeout",
  414: "URI Too Long",
  431: "Request Header Fields Too Large",
};

/** Accepts connections and relays them to Deno.serve with read and idle timeouts. */
export class TcpFront {
  readonly addr: Deno.NetAddr;
  readonly #listener: Deno.TcpListener;
  readonly #o: TcpFrontOptions;
  /** The client behind each upstream connection, by the upstream connection's local port. */
  readonly #clients = new Map<number, Deno.NetAddr>();
  readonly #relays = new Set<Relay>();
  readonly #accepting: Promise<void>;

  /** Listens on the configured address at once; throws what Deno.listen throws. */
  constructor(options: TcpFrontOptions) {
    this.#o = options;
    this.#listener = Deno.listen({ hostname: options.hostname, port: options.port });
    this.addr = this.#listener.addr;
    this.#accepting = this.#accept();
  }

  /** The address of the client whose requests arrive from this upstream port, if any. */
  clientOf(upstreamPort: number): Deno.NetAddr | undefined {
    return this.#clients.get(upstreamPort);
  }

  /** Stops accepting connections; open ones go on. */
  async stopAccepting(): Promise<void> {
    this.#listener.close();
    await this.#accepting;
  }

  /** Whether no connection is part-way through sending a request. */
  quiet(): boolean {
    for (const relay of this.#relays) if (!relay.between()) return false;
    return true;
  }

  /**
   * Lets relays whose upstream side Deno.serve has closed pass on what is left of the answer,
   * for up to `graceMs`, then closes every connection still open.
   */
  async closeAll(graceMs: number): Promise<void> {
    const deadline = Date.now() + graceMs;
    while (this.#relays.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const relay of this.#relays) relay.close();
  }

  async #accept(): Promise<void> {
    for (;;) {
      let client: Deno.TcpConn;
      try {
        client = await this.#listener.accept();
      } catch {
        return; // The listener was closed.
      }
      this.#relay(client).catch(() => {});
    }
  }

  async #relay(client: Deno.TcpConn): Promise<void> {
    let upstream: Deno.TcpConn;
    try {
      upstream = await Deno.connect({
        hostname: this.#o.upstream.hostname,
        port: this.#o.upstream.port,
      });
    } catch {
      client.close();
      return;
    }
    // A relay must not hold back a small write waiting for the previous one's ACK: a streamed
    // answer (MCP's SSE) reaches us as its head, then its body, and without TCP_NODELAY on the
    // client's side the body waited for the client's delayed ACK of the head: 40 ms a request
    // (scripts/bench-front.ts finds such stalls). The upstream side is set for the same reason
    // in the other direction, for clients that send a request's head and body apart.
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    const port = (upstream.localAddr as Deno.NetAddr).port;
    this.#clients.set(port, client.remoteAddr as Deno.NetAddr);
    let closed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const framer = new RequestFramer();
    const relay: Relay = {
      client,
      upstream,
      between: () => framer.phase === "between",
      close: () => {
        if (closed) return;
        closed = true;
        clearTimeout(timer);
        this.#clients.delete(port);
        this.#relays.delete(relay);
        for (const conn of [client, upstream]) {
          try {
            conn.close();
          } catch {
            // Already closed.
          }
        }
      },
    };
    this.#relays.add(relay);
    /** Whether Deno.serve has sent anything since the current request began. */
    let answered = false;
    const arm = () => {
      clearTimeout(timer);
      const between = framer.phase === "between";
      timer = setTimeout(async () => {
        if (!between && !answered) await writeAll(client, this.#o.timeoutResponse).catch(() => {});
        relay.close();
      }, between ? this.#o.idleTimeoutMs : this.#o.readTimeoutMs);
    };
    arm();
    // Deno.serve closing its side (an answer with Connection: close) ends the relay.
    const down = pump(upstream, client, () => {
      answered = true;
      if (framer.phase === "between") arm();
    }).then(() => {
      // A refused request's connection is closed once its answer is out (below).
      if (!framer.oversized) relay.close();
    });
    const up = pump(client, upstream, (bytes) => {
      const before = framer.changes;
      framer.push(bytes);
      if (framer.changes === before) return true;
      if (framer.phase === "oversized") {
        clearTimeout(timer);
        return false;
      }
      if (framer.phase === "head") answered = false;
      // A whole request waiting for its answer is not idle: however long the server takes (a big
      // batch on a busy machine), the answer re-arms the idle timer when it comes.
      if (framer.phase === "between" && !answered) clearTimeout(timer);
      else arm();
      return true;
    });
    await up;
    if (framer.oversized && !closed) {
      await refuse(client, this.#o.oversizedResponses[framer.oversized]);
      relay.close();
      return;
    }
    // The client sent all it will: let the answer come, then close.
    if (!closed) await upstream.closeWrite().catch(() => {});
    await down;
  }
}

/**
 * Answers a client whose request is refused unread, then ends its connection. What it is still
 * sending is read and dropped for a while: closing a socket with unread bytes resets the
 * connection, and the client might lose the answer.
 */
async function refuse(client: Deno.TcpConn, response: Uint8Array): Promise<void> {
  try {
    await writeAll(client, response);
    await client.closeWrite();
  } catch {
    return;
  }
  const buffer = new Uint8Array(BUFFER_BYTES);
  const timer = setTimeout(() => client.close(), DISCARD_MS);
  try {
    for (let dropped = 0; dropped < DISCARD_BYTES;) {
      const n = await client.read(buffer);
      if (n === null) break;
      dropped += n;
    }
  } catch {
    // Closed by the timer, or by the client.
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Copies `from` to `to` until either ends, calling `seen` with each chunk before it is sent; a
 * chunk `seen` answers false for is not sent, and the copy stops.
 */
async function pump(
  from: Deno.TcpConn,
  to: Deno.TcpConn,
  seen: (bytes: Uint8Array) => boolean | void,
): Promise<void> {
  const buffer = new Uint8Array(BUFFER_BYTES);
  for (;;) {
    let n: number | null;
    try {
      n = await from.read(buffer);
    } catch {
      return;
    }
    if (n === null) return;
    const bytes = buffer.subarray(0, n);
    if (seen(bytes) === false) return;
    try {
      await writeAll(to, bytes);
    } catch {
      return;
    }
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let written = 0; written < bytes.length;) {
    written += await conn.write(bytes.subarray(written));
  }
}

/** `response` as the bytes of an HTTP/1.1 message, for answering below Deno.serve. */
export async function httpResponseBytes(response: Response): Promise<Uint8Array> {
  const body = new Uint8Array(await response.arrayBuffer());
  const reason = response.statusText || REASONS[response.status] || "Error";
  const head = [`HTTP/1.1 ${response.status} ${reason}`];
  response.headers.forEach((value, name) => {
    if (name !== "content-length") head.push(`${name}: ${value}`);
  });
  head.push(`content-length: ${body.length}`, "", "");
  const headBytes = new TextEncoder().encode(head.join("\r\n"));
  const bytes = new Uint8Array(headBytes.length + body.length);
  bytes.set(headBytes);
  bytes.set(body, headBytes.length);
  return bytes;
}
