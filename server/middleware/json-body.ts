/**
 * Middleware: reads a JSON request body with a hard size cap (also when it arrives chunked,
 * without Content-Length), refuses other media types, and explains bodies that are not JSON.
 * The parsed text is left in Hono's body cache, where the route's schema validator reads it.
 */
import type { Context, MiddlewareHandler } from "hono";
import { AppError, validationError } from "../errors.ts";

/** The largest body the API accepts. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * JSON media types, with parameters. Exactly what @hono/zod-openapi's media-type gate and Hono's
 * JSON validator both accept, so that a body passed here is never refused or skipped by them.
 */
const JSON_TYPE = /^application\/([a-z.-]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

/** Options of jsonBody. */
export interface JsonBodyOptions {
  /** What the body should be, for the message when it is empty: "a JSON object with ...". */
  expected: string;
  /** Largest accepted body in bytes (default MAX_BODY_BYTES). */
  limit?: number;
}

function tooLarge(limit: number): AppError {
  return new AppError(
    "payload_too_large",
    `The request body is larger than ${limit} bytes (4 MiB); send less per request, ` +
      "such as fewer events per batch.",
  );
}

function checkMediaType(c: Context): void {
  const type = c.req.header("Content-Type");
  if (type !== undefined && JSON_TYPE.test(type)) return;
  throw new AppError(
    "unsupported_media_type",
    type === undefined
      ? 'The request has a body but no Content-Type: send it with "Content-Type: application/json".'
      : `Send the body as JSON with "Content-Type: application/json" (got "${type}").`,
  );
}

/** The body's bytes, at most `limit` of them, however they arrive. */
async function readCapped(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
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
  return bytes;
}

function decode(bytes: Uint8Array, expected: string): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw validationError([{ path: [], message: "The request body is not valid UTF-8" }]);
  }
  if (text.trim() === "") {
    throw validationError([{ path: [], message: `The request body is empty: send ${expected}` }]);
  }
  try {
    JSON.parse(text);
  } catch (err) {
    throw validationError([{
      path: [],
      message: `The request body is not valid JSON: ${(err as Error).message}`,
    }]);
  }
  return text;
}

/** Builds the middleware: 413 past `limit` bytes, 415 for a non-JSON type, 400 for bad JSON. */
export function jsonBody(options: JsonBodyOptions): MiddlewareHandler {
  const limit = options.limit ?? MAX_BODY_BYTES;
  return async function jsonBodyMiddleware(c, next) {
    const typed = c.req.header("Content-Type") !== undefined;
    if (typed) checkMediaType(c);
    const declared = Number(c.req.header("Content-Length"));
    if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
    const stream = c.req.raw.body;
    const bytes = stream === null ? new Uint8Array() : await readCapped(stream, limit);
    if (bytes.byteLength > 0 && !typed) checkMediaType(c);
    // Hono's JSON validator reads `text` from this cache instead of the consumed stream. The
    // cache holds promises at run time, whatever its declared type says.
    (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(
      decode(bytes, options.expected),
    );
    await next();
  };
}
