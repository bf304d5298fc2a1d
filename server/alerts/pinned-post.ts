/**
 * An HTTP/1.1 POST made to an address already checked (server/alerts/webhook-address.ts), not to
 * whatever the name resolves to when the connection opens: fetch would resolve the name again,
 * and a name that answers a public address to the check and a private one to the connection
 * would reach inside. TLS still checks the certificate against the URL's host name. Only the
 * status line of the answer is read.
 */

/** How long a receiver may take to connect and answer. */
const TIMEOUT_MS = 10_000;
/** At most this much of the answer is read, looking for its status line. */
const MAX_HEAD_BYTES = 8_192;

/** Posts `body` to `url` through `address`; the answer's status code. */
export async function postPinned(
  url: URL,
  o: { address: string; headers: Record<string, string>; body: string },
): Promise<number> {
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const tcp = await withTimeout(Deno.connect({ hostname: o.address, port }));
  let conn: Deno.Conn = tcp;
  const timer = setTimeout(() => conn.close(), TIMEOUT_MS);
  try {
    if (url.protocol === "https:") {
      conn = await Deno.startTls(tcp, { hostname: url.hostname.replace(/^\[|\]$/g, "") });
    }
    const body = new TextEncoder().encode(o.body);
    const head = [
      `POST ${url.pathname}${url.search} HTTP/1.1`,
      `Host: ${url.host}`,
      "Content-Type: application/json",
      `Content-Length: ${body.length}`,
      "Connection: close",
      "User-Agent: tech-events-alerts",
      ...Object.entries(o.headers).map(([name, value]) => `${name}: ${value}`),
      "",
      "",
    ].join("\r\n");
    await writeAll(conn, new TextEncoder().encode(head));
    await writeAll(conn, body);
    return await readStatus(conn);
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // Closed by the timeout already.
    }
  }
}

async function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error("the receiver did not accept a connection")),
      TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await conn.write(bytes.subarray(written));
}

async function readStatus(conn: Deno.Conn): Promise<number> {
  const buffer = new Uint8Array(MAX_HEAD_BYTES);
  let filled = 0;
  while (filled < buffer.length) {
    const n = await conn.read(buffer.subarray(filled));
    if (n === null) break;
    filled += n;
    const text = new TextDecoder().decode(buffer.subarray(0, filled));
    const line = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r?\n/.exec(text);
    if (line) return Number(line[1]);
    if (text.includes("\n")) break;
  }
  throw new Error("the receiver's answer has no HTTP status line");
}
