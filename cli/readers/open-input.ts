/** Opens what the user named (a file, `-` for stdin, or an http(s) URL) as a stream of text. */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import process from "node:process";
import { InputError } from "../errors.ts";
import { describeNetworkError } from "../send/network-errors.ts";
import { type Format, formatFromContent, formatFromMediaType, formatFromName } from "./formats.ts";

/** An opened input. */
export interface Input {
  /** How locations name it: the path, the URL, or "stdin". */
  name: string;
  format: Format;
  /** Decoded text (UTF-8, BOM removed), read lazily. */
  chunks: AsyncIterable<string>;
  /** Total bytes, when known (files, and URLs that send Content-Length). */
  size: number | null;
  /** Bytes read so far. */
  bytesRead(): number;
  /** The URL it was fetched from (the final one after redirects). */
  url?: string;
}

/** How to open an input. */
export interface OpenOptions {
  format?: Format;
  /** Per-request timeout for URLs, in milliseconds. */
  timeoutMs: number;
}

/** Counts bytes, decodes UTF-8 and lets the first text be looked at before it is read. */
function decoded(bytes: AsyncIterable<Uint8Array>, counter: { bytes: number }, name: string) {
  const decoder = new TextDecoder("utf-8");
  return (async function* () {
    try {
      for await (const chunk of bytes) {
        counter.bytes += chunk.byteLength;
        const text = decoder.decode(chunk, { stream: true });
        if (text !== "") yield text;
      }
    } catch (error) {
      // A file or a download that fails half-way; what was read has been handled.
      const code = (error as { code?: string }).code;
      throw new InputError(
        `Cannot read all of ${name}: ${
          /^E[A-Z]+$/.test(code ?? "") && code !== "ECONNRESET"
            ? fileProblem(code)
            : describeNetworkError(error)
        }`,
      );
    }
    const rest = decoder.decode();
    if (rest !== "") yield rest;
  })();
}

/** Reads the first chunk to sniff the format, then yields it again with the rest. */
async function withFormat(
  chunks: AsyncGenerator<string>,
  known: Format | null,
  name: string,
): Promise<{ format: Format; chunks: AsyncIterable<string> }> {
  if (known) return { format: known, chunks };
  const first = await chunks.next();
  const head = first.done ? "" : first.value;
  const format = formatFromContent(head);
  if (!format) {
    throw new InputError(
      `Cannot tell the format of ${name}: name it with --format ics|csv|json|ndjson`,
    );
  }
  return {
    format,
    chunks: (async function* () {
      if (!first.done) yield head;
      yield* chunks;
    })(),
  };
}

async function openUrl(url: string, options: OpenOptions): Promise<Input> {
  // Loaded only for URL inputs: evaluating undici is a noticeable share of start-up.
  const { Agent, fetch } = await import("undici");
  const dispatcher = new Agent({
    connectTimeout: options.timeoutMs,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  let response;
  try {
    response = await fetch(url, {
      dispatcher,
      headers: { accept: "text/calendar, text/csv, application/json, application/x-ndjson, */*" },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    throw new InputError(`Cannot fetch ${url}: ${describeNetworkError(error)}`);
  }
  if (!response.ok || !response.body) {
    throw new InputError(
      `Cannot fetch ${url}: the server answered ${response.status} ${response.statusText}`,
    );
  }
  const counter = { bytes: 0 };
  const length = Number(response.headers.get("content-length"));
  const known = options.format ?? formatFromName(new URL(response.url || url).pathname) ??
    formatFromMediaType(response.headers.get("content-type"));
  const sniffed = await withFormat(decoded(response.body, counter, url), known, url);
  return {
    name: url,
    ...sniffed,
    size: Number.isFinite(length) && length > 0 ? length : null,
    bytesRead: () => counter.bytes,
    url: response.url || url,
  };
}

function fileProblem(code: string | undefined): string {
  if (code === "ENOENT") return "no such file (check the path)";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "ENOTDIR") return "a part of the path is not a folder";
  return `it cannot be opened (${code ?? "unknown reason"})`;
}

async function openFile(path: string, options: OpenOptions): Promise<Input> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InputError(`Cannot read ${path}: it is not a file`);
    size = info.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as { code?: string }).code;
    throw new InputError(`Cannot read ${path}: ${fileProblem(code)}`);
  }
  const counter = { bytes: 0 };
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  const sniffed = await withFormat(
    decoded(stream, counter, path),
    options.format ?? formatFromName(path),
    path,
  );
  return { name: path, ...sniffed, size, bytesRead: () => counter.bytes };
}

/** Opens `spec`: "-" is stdin, http(s):// or webcal:// a URL, anything else a file path. */
export function openInput(spec: string, options: OpenOptions): Promise<Input> {
  if (spec === "-") {
    const counter = { bytes: 0 };
    const stdin = process.stdin as AsyncIterable<Uint8Array>;
    return withFormat(decoded(stdin, counter, "stdin"), options.format ?? null, "stdin").then((
      sniffed,
    ) => ({
      name: "stdin",
      ...sniffed,
      size: null,
      bytesRead: () => counter.bytes,
    }));
  }
  // webcal:// is how calendar links ask to be subscribed to: the feed itself is at https://.
  if (/^webcals?:\/\//i.test(spec)) return openUrl(spec.replace(/^webcals?:/i, "https:"), options);
  if (/^https?:\/\//i.test(spec)) return openUrl(spec, options);
  return openFile(spec, options);
}
