/**
 * A local HTTP server that speaks the OpenAI embeddings protocol (POST /v1/embeddings), the one
 * outside service the tests replace. Its vectors are deterministic bags of hashed words, so texts
 * that share words are near each other and an exact title finds its event. It can be told to
 * fail the next requests with 429 (and Retry-After) or 500, as OpenAI does under load.
 */

import type { EmbeddingSettings } from "../server/config.ts";

export interface FakeOpenAIRequest {
  model: string;
  input: string[];
  dimensions?: number;
  encodingFormat: "float" | "base64";
  authorization: string | null;
}

export interface FailureOptions {
  status: 429 | 500 | 503 | 400 | 401;
  /** Seconds to put in Retry-After (429 only makes sense with it, but it is not required). */
  retryAfter?: number;
  /** OpenAI's error code, such as "insufficient_quota". */
  code?: string;
}

export interface FakeOpenAI {
  /** Base URL to give the client, ending in /v1. */
  baseUrl: string;
  apiKey: string;
  /** Every embeddings request answered so far, failed ones included. */
  requests: FakeOpenAIRequest[];
  /** Answers the next `count` embeddings requests with the given failure. */
  failNext(count: number, failure: FailureOptions): void;
  /** Holds the next `count` requests without answering, as a hung upstream would. */
  stallNext(count: number): void;
  /** The server's settings for an openai provider that asks this fake for `dimensions`. */
  embeddingSettings(dimensions: number): EmbeddingSettings;
  close(): Promise<void>;
}

const DEFAULT_DIMENSIONS = 1536;

/** Starts the fake on a free loopback port. */
export function startFakeOpenAI(options: { apiKey?: string } = {}): FakeOpenAI {
  const apiKey = options.apiKey ?? "sk-test-fake-openai";
  const requests: FakeOpenAIRequest[] = [];
  const failures: FailureOptions[] = [];
  let stalls = 0;
  const stalled: (() => void)[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const url = new URL(req.url);
      if (req.method !== "POST" || url.pathname !== "/v1/embeddings") {
        return error(404, "not_found", `No route ${req.method} ${url.pathname}`);
      }
      const authorization = req.headers.get("authorization");
      const body = await req.json().catch(() => null);
      const input = typeof body?.input === "string" ? [body.input] : body?.input;
      if (!Array.isArray(input) || input.some((t) => typeof t !== "string" || t === "")) {
        return error(400, "invalid_request_error", "input must be a non-empty string or array");
      }
      const encodingFormat = body.encoding_format === "base64" ? "base64" : "float";
      requests.push({
        model: body.model,
        input,
        dimensions: body.dimensions,
        encodingFormat,
        authorization,
      });
      if (authorization !== `Bearer ${apiKey}`) {
        return error(401, "invalid_api_key", "Incorrect API key provided");
      }
      if (stalls > 0) {
        stalls--;
        // Answered only when the fake closes, by which time nobody is listening.
        await new Promise<void>((resolve) => stalled.push(resolve));
        return error(503, "server_error", "Stalled request released at shutdown");
      }
      const failure = failures.shift();
      if (failure) {
        const headers = failure.retryAfter === undefined
          ? undefined
          : { "retry-after": String(failure.retryAfter) };
        return error(failure.status, failure.code ?? "server_error", "Simulated failure", headers);
      }
      const dims = typeof body.dimensions === "number" ? body.dimensions : DEFAULT_DIMENSIONS;
      const data = input.map((text: string, index: number) => {
        const vector = fakeVector(text, dims);
        return {
          object: "embedding",
          index,
          embedding: encodingFormat === "base64" ? toBase64(vector) : Array.from(vector),
        };
      });
      const tokens = input.reduce((n: number, t: string) => n + t.split(/\s+/).length, 0);
      return Response.json({
        object: "list",
        data,
        model: body.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
    },
  );
  const baseUrl = `http://127.0.0.1:${server.addr.port}/v1`;
  return {
    baseUrl,
    apiKey,
    requests,
    embeddingSettings: (dimensions) => ({
      provider: "openai",
      openaiApiKey: apiKey,
      openaiBaseUrl: baseUrl,
      dimensions,
    }),
    failNext(count, failure) {
      for (let i = 0; i < count; i++) failures.push(failure);
    },
    stallNext(count) {
      stalls += count;
    },
    close: () => {
      for (const release of stalled.splice(0)) release();
      return server.shutdown();
    },
  };
}

/** A deterministic unit vector: each lower-cased word adds weight to hashed positions. */
export function fakeVector(text: string, dims: number): Float32Array {
  const v = new Float32Array(dims);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = fnv1a(word);
    v[h % dims] += 1;
    v[(h >>> 11) % dims] += (h & 1) === 0 ? 0.5 : -0.5;
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < dims; i++) v[i] /= norm;
  return v;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function toBase64(vector: Float32Array): string {
  // OpenAI sends little-endian float32; so do all the machines this runs on, but say it anyway.
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  vector.forEach((x, i) => view.setFloat32(i * 4, x, true));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function error(status: number, code: string, message: string, headers?: Record<string, string>) {
  return Response.json({ error: { message, type: code, code, param: null } }, {
    status,
    headers,
  });
}
