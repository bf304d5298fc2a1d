/**
 * Error answers for the layer around the application (serve.ts), which has no Hono context:
 * shaped by errors.ts like every other error answer, so there is still one place that shapes them.
 */
import { type AppError, errorBody, errorHeaders } from "./errors.ts";

/** The JSON answer for `error`, asking the client to close the connection after it. */
export function standaloneErrorResponse(error: AppError): Response {
  return new Response(JSON.stringify(errorBody(error)), {
    status: error.status,
    headers: {
      ...errorHeaders(error),
      "Content-Type": "application/json",
      Connection: "close",
    },
  });
}
