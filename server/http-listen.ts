/**
 * HTTP on the configured address: Deno.serve on a loopback port behind the TCP front, which bounds
 * how long a client may take to send a request (see http-front/tcp-front.ts). Handlers see the
 * real client's address, as if they were served directly.
 */
import type { Config } from "./config.ts";
import { ConfigError } from "./config.ts";
import { AppError, type ErrorCode } from "./errors.ts";
import {
  MAX_HEAD_BYTES,
  MAX_HEADER_FIELDS,
  MAX_REQUEST_LINE_BYTES,
} from "./http-front/request-framer.ts";
import { httpResponseBytes, TcpFront } from "./http-front/tcp-front.ts";
import type { RequestDrain } from "./request-drain.ts";
import { standaloneErrorResponse } from "./standalone-error.ts";

type Handler = (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Promise<Response>;

export interface HttpListenOptions {
  /** Counts requests in progress, so that a stop can wait for them. */
  drain: RequestDrain;
  /** How long a request's head, then its body, may take to arrive. */
  readTimeoutMs: number;
}

/** A listening HTTP server. */
export interface HttpListener {
  addr: Deno.NetAddr;
  /** Refuses new connections, lets requests in progress finish (up to `drainMs`), closes. */
  stop(drainMs: number): Promise<void>;
}

/** Serves `handler` on the configured port; a port that cannot be had is a ConfigError. */
export async function listenHttp(
  config: Pick<Config, "port" | "host">,
  handler: Handler,
  options: HttpListenOptions,
): Promise<HttpListener> {
  let front: TcpFront | undefined;
  const served = options.drain.wrap((request, info) => {
    const client = front?.clientOf(info.remoteAddr.port);
    return handler(request, client ? { ...info, remoteAddr: client } : info);
  });
  const { promise: listening, resolve } = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: (addr) => resolve(addr as Deno.NetAddr),
  }, served);
  const upstream = await listening;
  const seconds = options.readTimeoutMs / 1000;
  const timeoutResponse = await standaloneBytes(
    "request_timeout",
    `The request did not arrive within ${seconds} s: send it again, without pauses`,
  );
  const oversizedResponses = {
    "request-line": await standaloneBytes(
      "uri_too_long",
      `The request line is longer than ${MAX_REQUEST_LINE_BYTES / 1024} KiB: shorten the URL ` +
        "(long searches and filters belong in fewer, shorter parameters)",
    ),
    head: await standaloneBytes(
      "request_header_fields_too_large",
      `The request head is longer than ${MAX_HEAD_BYTES / 1024} KiB or has more than ` +
        `${MAX_HEADER_FIELDS} header fields: send fewer or shorter headers (cookies included)`,
    ),
  };
  try {
    front = new TcpFront({
      hostname: config.host,
      port: config.port,
      upstream,
      readTimeoutMs: options.readTimeoutMs,
      idleTimeoutMs: 2 * options.readTimeoutMs,
      timeoutResponse,
      oversizedResponses,
    });
  } catch (err) {
    await server.shutdown();
    throw listenError(err, config) ?? err;
  }
  const opened = front;
  return {
    addr: opened.addr,
    stop: async (drainMs) => {
      await opened.stopAccepting();
      await options.drain.drain(drainMs, () => opened.quiet());
      // Deno.serve finishes the answers still being sent and closes its side of each relay.
      await server.shutdown();
      await opened.closeAll(1_000);
    },
  };
}

/** The whole HTTP answer for an error the front gives without Deno.serve. */
async function standaloneBytes(code: ErrorCode, message: string): Promise<Uint8Array> {
  return await httpResponseBytes(standaloneErrorResponse(new AppError(code, message)));
}

function listenError(err: unknown, { port, host }: Pick<Config, "port" | "host">) {
  const where = `port ${port} on ${host}`;
  if (err instanceof Deno.errors.AddrInUse) {
    return new ConfigError(
      `Cannot start: ${where} is already in use by another program: stop that program or set ` +
        "PORT to a free port",
    );
  }
  if (err instanceof Deno.errors.AddrNotAvailable) {
    return new ConfigError(
      `Cannot start: ${host} is not an address of this machine: set HOST to one of its ` +
        "addresses, or to 0.0.0.0 for all of them",
    );
  }
  if (err instanceof Deno.errors.PermissionDenied) {
    return new ConfigError(
      `Cannot start: this user may not listen on ${where}: set PORT to 1024 or above`,
    );
  }
  return null;
}
