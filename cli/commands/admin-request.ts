/** One operator API call with the errors mapped to the CLI's closed set, its answer parsed. */
import type { z } from "zod";
import { AuthError, GaveUpError, RejectedError, UsageError } from "../errors.ts";
import { ApiClient, type ApiResponse, errorText, TransportError } from "../send/api-client.ts";
import { ValidationErrorBody } from "../../shared/api-schemas.ts";
import type { ApiSettings } from "../settings.ts";

/** One operator request, and the schema of its answer's `data`. */
export interface AdminCall<T extends z.ZodType> {
  method: "GET" | "POST" | "PATCH";
  path: string;
  body?: unknown;
  answer: T;
}

/** The answer's `data`, checked with the call's schema: a server that says otherwise gives up. */
function parsedData<T extends z.ZodType>(call: AdminCall<T>, response: ApiResponse): z.output<T> {
  const body = response.body;
  const data = body !== null && typeof body === "object" && "data" in body ? body.data : undefined;
  const parsed = call.answer.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at data.${issue.path.join(".")}` : "";
  throw new GaveUpError(
    `Cannot read the server's answer to ${call.method} ${call.path}${where}: ${
      issue?.message ?? "not the expected shape"
    }; is --api-url a tech-events server of this version?`,
  );
}

/** Calls the operator API and returns the answer's `data`, parsed with the call's schema. */
export async function adminRequest<T extends z.ZodType>(
  api: ApiSettings,
  call: AdminCall<T>,
): Promise<z.output<T>> {
  const client = new ApiClient({
    baseUrl: api.apiUrl,
    apiKey: api.apiKey,
    timeoutMs: api.timeoutMs,
  });
  try {
    const response = await client.send(call.method, call.path, call.body);
    const status = response.status;
    if (status >= 200 && status < 300) return parsedData(call, response);
    const message = errorText(response);
    if (status === 401) {
      throw new AuthError(`The server refused the operator key (401): ${message}`);
    }
    if (status === 403) throw new AuthError(`The key is not an operator key (403): ${message}`);
    if (status === 404) {
      throw new UsageError(
        message === "HTTP 404" ? `Not found: ${call.path}; check --api-url` : message,
      );
    }
    if (status === 400) {
      const parsed = ValidationErrorBody.safeParse(response.body);
      const details = parsed.success ? parsed.data.details : [];
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
