/**
 * The one place that talks HTTP to the service. Every request has connect, header and body
 * timeouts plus an overall deadline, so no command can hang on a silent server. The key goes
 * into the Authorization header only and into no message.
 */
import type { Agent } from "undici";
import { ErrorBody } from "../../shared/api-schemas.ts";
import { describeNetworkError } from "./network-errors.ts";

// undici is loaded on the first request: `validate` and `push --dry-run` never need it, and
// evaluating it is a noticeable share of the CLI's start-up.
let undici: Promise<typeof import("undici")> | undefined;

/** A parsed answer. */
export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: unknown;
  elapsedMs: number;
}

/** The request never got an answer: refused, reset, timed out. Safe to retry for upserts. */
export class TransportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TransportError";
  }
}

/** Connection settings. */
export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

/** A small client for the service's JSON API. */
export class ApiClient {
  #agent: Agent | undefined;
  readonly #options: ApiClientOptions;

  constructor(options: ApiClientOptions) {
    this.#options = { ...options, baseUrl: options.baseUrl.replace(/\/+$/, "") };
  }

  /** The base URL requests go to. */
  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  /** Sends one request; throws TransportError when no answer arrives. */
  async send(method: "GET" | "POST" | "PATCH", path: string, body?: unknown): Promise<ApiResponse> {
    const started = performance.now();
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#options.apiKey}`,
      accept: "application/json",
      "user-agent": "events-cli",
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    const { Agent, request } = await (undici ??= import("undici"));
    this.#agent ??= new Agent({
      connectTimeout: this.#options.timeoutMs,
      headersTimeout: this.#options.timeoutMs,
      bodyTimeout: this.#options.timeoutMs,
      keepAliveTimeout: 10_000,
    });
    try {
      const response = await request(`${this.#options.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        dispatcher: this.#agent,
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      });
      const text = await response.body.text();
      let parsed: unknown = text;
      if (text !== "") {
        try {
          parsed = JSON.parse(text);
        } catch {
          // Not JSON (a proxy's HTML error page, say): keep the text for the message.
        }
      }
      return {
        status: response.statusCode,
        headers: response.headers,
        body: parsed,
        elapsedMs: performance.now() - started,
      };
    } catch (error) {
      throw new TransportError(describeNetworkError(error));
    }
  }

  /** Closes pooled connections so the process can exit at once. */
  async close(): Promise<void> {
    await this.#agent?.close();
  }
}

/** One header's value as a string (the first, when repeated). */
export function header(response: ApiResponse, name: string): string | undefined {
  const value = response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The server's own words for an error answer, for messages, without a closing full stop: they
 * are set inside the CLI's own sentences ("...: <text>. Check --api-key"), which end them.
 */
export function errorText(response: ApiResponse): string {
  return ownWords(response).replace(/(?<!\.)\.$/, "");
}

// Whatever part of our error shape an answer has (a proxy's may have neither).
const ErrorWords = ErrorBody.pick({ error: true, message: true }).partial();

function ownWords(response: ApiResponse): string {
  const body = response.body;
  const words = ErrorWords.safeParse(body);
  if (words.success) {
    const text = words.data.message?.trim() || words.data.error?.trim();
    if (text) return text;
  }
  if (typeof body === "string" && body.trim() !== "") return body.trim().slice(0, 200);
  return `HTTP ${response.status}`;
}
