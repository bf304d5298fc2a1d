/**
 * A reverse proxy in front of the real server that injects the faults a CLI meets in the wild:
 * answers 503, 429 (Retry-After: 1) or 413 without forwarding, or forwards the request (so the
 * server applies it) and then drops the connection before the answer gets back.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A fault for one request. */
export type Fault = "503" | "429" | "413" | "drop-after-forward" | "drop-before-forward";

// What the server's own error builder would answer for each status the proxy makes up.
const ANSWERS: Record<"503" | "429" | "413", { headers: Record<string, string>; body: object }> = {
  "503": {
    headers: {},
    body: { error: "Service Unavailable", code: "unavailable", message: "injected" },
  },
  "429": {
    headers: { "retry-after": "1" },
    body: { error: "Too Many Requests", code: "rate_limited", message: "injected", retry_after: 1 },
  },
  "413": {
    headers: {},
    body: { error: "Payload Too Large", code: "payload_too_large", message: "injected" },
  },
};

/** A running proxy. */
export interface FaultProxy {
  url: string;
  /** Faults for the next requests, in order; requests after the queue pass through. */
  faults: Fault[];
  /** Requests seen, and what happened to each. */
  log: { path: string; outcome: Fault | number }[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = "";
  req.setEncoding("utf8");
  for await (const chunk of req) body += chunk;
  return body;
}

/** Starts the proxy on a free loopback port, forwarding to `upstream`. */
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const proxy: FaultProxy = { url: "", faults: [], log: [], close: async () => {} };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? "/";
    const body = await readBody(req);
    const fault = proxy.faults.shift();
    if (fault === "503" || fault === "429" || fault === "413") {
      proxy.log.push({ path, outcome: fault });
      const { headers, body } = ANSWERS[fault];
      res.writeHead(Number(fault), { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
      return;
    }
    if (fault === "drop-before-forward") {
      proxy.log.push({ path, outcome: fault });
      req.socket.destroy();
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string" && !["host", "connection", "content-length"].includes(name)) {
        headers[name] = value;
      }
    }
    const answer = await fetch(`${upstream}${path}`, {
      method: req.method,
      headers,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
    });
    const text = await answer.text();
    if (fault === "drop-after-forward") {
      proxy.log.push({ path, outcome: fault });
      req.socket.destroy();
      return;
    }
    proxy.log.push({ path, outcome: answer.status });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (
        !["content-length", "content-encoding", "transfer-encoding", "connection"].includes(name)
      ) out[name] = value;
    });
    res.writeHead(answer.status, out);
    res.end(text);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  proxy.url = `http://127.0.0.1:${port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
