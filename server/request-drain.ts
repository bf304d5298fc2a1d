/**
 * Graceful stop for Deno.serve. `HttpServer.shutdown()` stops accepting, but on Deno 2.9 it also
 * makes the body of every request still arriving unreadable (denoland/deno#36809), which turns an
 * upload in progress into a 500. So a stop first drains: requests already in progress run to the
 * end, new ones are answered 503 with `Connection: close`; only then is the listener shut down.
 */
import { AppError } from "./errors.ts";
import { standaloneErrorResponse } from "./standalone-error.ts";

type Handler = (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Promise<Response>;

/** Counts requests in progress; once draining, turns new requests away. */
export class RequestDrain {
  #active = 0;
  #draining = false;

  /** `handler`, counted while it runs, answering 503 once the drain has begun. */
  wrap(handler: Handler): Handler {
    return async (request, info) => {
      if (this.#draining) {
        return standaloneErrorResponse(
          new AppError(
            "service_unavailable",
            "The server is stopping: send the request again in a moment",
            { retryAfterSeconds: 1 },
          ),
        );
      }
      this.#active++;
      try {
        return await handler(request, info);
      } finally {
        this.#active--;
      }
    };
  }

  /**
   * Starts turning requests away; resolves once none is in progress and `settled()` holds (the
   * front has no request still arriving), or after `ms`.
   */
  async drain(ms: number, settled: () => boolean = () => true): Promise<void> {
    this.#draining = true;
    const deadline = Date.now() + ms;
    while (Date.now() < deadline && !(this.#active === 0 && settled())) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Requests in progress. */
  get active(): number {
    return this.#active;
  }
}
