/** Reads a request body as JSON with a hard size cap, also when it arrives chunked. */
import type { Context } from "hono";
import { AppError, validationError } from "../errors.ts";

/** The largest body the API accepts. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

function tooLarge(limit: number): AppError {
  return new AppError(
    "payload_too_large",
    `The request body is larger than ${limit} bytes; send fewer events per request.`,
  );
}

/** The parsed JSON body; 413 past `limit` bytes, 415 for a non-JSON type, 400 for bad JSON. */
export async function readJsonBody(c: Context, limit = MAX_BODY_BYTES): Promise<unknown> {
  const type = c.req.header("Content-Type");
  if (type !== undefined && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw new AppError(
      "unsupported_media_type",
      `Send the body as JSON with "Content-Type: application/json" (got "${type}").`,
    );
  }
  const declared = Number(c.req.header("Content-Length"));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const stream = c.req.raw.body;
  if (!stream) {
    throw validationError([{
      path: [],
      message: "The request body is empty: send a JSON object with an events array",
    }]);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw validationError([{ path: [], message: "The request body is not valid UTF-8" }]);
  }
  if (text.trim() === "") {
    throw validationError([{
      path: [],
      message: "The request body is empty: send a JSON object with an events array",
    }]);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw validationError([{
      path: [],
      message: `The request body is not valid JSON: ${(err as Error).message}`,
    }]);
  }
}
