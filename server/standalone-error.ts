/**
 * Error answers for the layer around the application (serve.ts), which has no Hono context:
 * built by errors.ts like every other error body, so there is still one place that shapes them.
 */
import { Hono } from "hono";
import { AppError, errorResponse } from "./errors.ts";

/** The JSON answer for `error`, asking the client to close the connection after it. */
export async function standaloneErrorResponse(error: AppError): Promise<Response> {
  const closing = new AppError(error.code, error.message, {
    ...error.options,
    headers: { ...error.options.headers, Connection: "close" },
  });
  // Rare answers (a stop, a slow client): a throwaway app per answer costs nothing that matters.
  const app = new Hono();
  app.all("*", (c) => errorResponse(c, closing));
  return await app.fetch(new Request("http://localhost/"));
}
