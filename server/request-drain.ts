/**
 * Graceful stop for Deno.serve. `HttpServer.shutdown()` stops accepting, but on Deno 2.9 it also
 * makes the body of every request still arriving unreadable (denoland/deno#36809), which turns an
 * upload in progress into a 500. So a stop first drains: requests already in progress run to the
 * end, new ones are answered 503 with `Connection: close`; only then is the listener shut down.
 */
import { Hono } from "hono";
import { AppError, errorResponse } from "./errors.ts";

type Handler = (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Promise<Response>;

/** Counts requests in progress; once draining, turns new requests away. */
export class RequestDrain {
  #active = 0;
  #draining = false;
  #idle: (() => void) | null = null;
  readonly #refuse = new Hono();

  constructor() {
    this.#refuse.all("*", (c) => {
      c.header("Connection", "close");
      throw new AppError(
        "service_unavailable",
        "The server is stopping: send the request again in a moment",
        { retryAfterSeconds: 1 },
      );
    });
    this.#refuse.onError((err, c) => errorResponse(c, err));
  }

  /** `handler`, counted while it runs, answering 503 once the drain has begun. */
  wrap(handler: Handler): Handler {
    return async (request, info) => {
      if (this.#draining) return await this.#refuse.fetch(request);
      this.#active++;
      try {
        return await handler(request, info);
      } finally {
        this.#active--;
        if (this.#active === 0) this.#idle?.();
      }
    };
  }

  /** Starts turning requests away; resolves once none is in progress or after `ms`. */
  drain(ms: number): Promise<void> {
    this.#draining = true;
    if (this.#active === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      this.#idle = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  /** Requests in progress. */
  get active(): number {
    return this.#active;
  }
}
