/** One operator API call with the errors mapped to the CLI's closed set. */
import { AuthError, GaveUpError, RejectedError, UsageError } from "../errors.ts";
import { ApiClient, errorText, TransportError } from "../send/api-client.ts";
import type { ApiSettings } from "../settings.ts";

/** Calls the operator API and returns the answer's `data`. */
export async function adminRequest(
  api: ApiSettings,
  method: "GET" | "POST" | "PATCH",
  path: string,
  body?: unknown,
): Promise<unknown> {
  const client = new ApiClient({
    baseUrl: api.apiUrl,
    apiKey: api.apiKey,
    timeoutMs: api.timeoutMs,
  });
  try {
    const response = await client.send(method, path, body);
    const status = response.status;
    if (status >= 200 && status < 300) return (response.body as { data?: unknown }).data;
    const message = errorText(response);
    if (status === 401) {
      throw new AuthError(`The server refused the operator key (401): ${message}`);
    }
    if (status === 403) throw new AuthError(`The key is not an operator key (403): ${message}`);
    if (status === 404) {
      throw new UsageError(
        message === "HTTP 404" ? `Not found: ${path}; check --api-url` : message,
      );
    }
    if (status === 400) {
      const details = (response.body as { details?: { message: string }[] }).details ?? [];
      throw new UsageError(details.length ? details.map((d) => d.message).join("; ") : message);
    }
    if (status === 409) throw new RejectedError(message);
    throw new GaveUpError(`The server answered ${status}: ${message}`);
  } catch (error) {
    if (error instanceof TransportError) {
      throw new GaveUpError(`Cannot reach ${api.apiUrl}: ${error.message}`);
    }
    throw error;
  } finally {
    await client.close();
  }
}

/** A key reference as the path needs it. */
export function keyPath(ref: string, action = ""): string {
  const trimmed = ref.trim();
  if (trimmed === "") {
    throw new UsageError("Cannot find a key without a name: give its id or display prefix");
  }
  return `/api/v1/admin/keys/${encodeURIComponent(trimmed)}${action}`;
}
