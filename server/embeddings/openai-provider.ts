/**
 * Embeddings from OpenAI or any server that speaks its embeddings protocol, through LangChain's
 * `OpenAIEmbeddings`. LangChain's own retries are switched off: the embedding worker retries with
 * backoff and honours Retry-After, so a rate-limited provider never stalls a request thread.
 */
import { OpenAIEmbeddings } from "@langchain/openai";
import {
  checkVectors,
  type EmbeddingProvider,
  EmbeddingProviderError,
  normalizeVector,
} from "./provider.ts";
import { DEFAULT_OPENAI_MODEL } from "../config.ts";

/** Output sizes of OpenAI's models when no `dimensions` is asked for. */
const NATIVE_DIMENSIONS: Record<string, number> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};

export interface OpenAIProviderOptions {
  apiKey: string;
  /** Any OpenAI-compatible server, such as `http://localhost:11434/v1`; default OpenAI's. */
  baseUrl?: string;
  model?: string;
  /** Vector size to ask for; required for models whose native size is not known here. */
  dimensions?: number;
  /** Milliseconds before a request is abandoned (and counted as retryable). */
  timeoutMs?: number;
  /** Texts per HTTP request. */
  batchSize?: number;
  /** Wire format of the vectors; some compatible servers only speak "float". Default base64. */
  encodingFormat?: "float" | "base64";
}

/** Embeds through an OpenAI-compatible HTTP API. */
export class OpenAIProvider implements EmbeddingProvider {
  readonly model: string;
  readonly dimensions: number;
  /** One request's worth of texts: OpenAI takes up to 2,048 inputs per request. */
  readonly batchSize: number;
  /** Two requests in flight: one is answered while the other's vectors are stored. */
  readonly concurrency = 2;
  readonly #client: OpenAIEmbeddings;
  readonly #modelName: string;

  constructor(options: OpenAIProviderOptions) {
    const modelName = options.model ?? DEFAULT_OPENAI_MODEL;
    const dimensions = options.dimensions ?? NATIVE_DIMENSIONS[modelName];
    if (dimensions === undefined) {
      throw new Error(
        `Cannot use embedding model ${modelName}: its vector size is unknown; set EMBEDDINGS_DIMENSIONS`,
      );
    }
    this.#modelName = modelName;
    this.dimensions = dimensions;
    this.model = `openai:${modelName}:${dimensions}`;
    this.batchSize = options.batchSize ?? 256;
    this.#client = new OpenAIEmbeddings({
      apiKey: options.apiKey,
      model: modelName,
      dimensions: options.dimensions,
      maxRetries: 0,
      timeout: options.timeoutMs ?? 30_000,
      batchSize: this.batchSize,
      encodingFormat: options.encodingFormat,
      configuration: options.baseUrl ? { baseURL: options.baseUrl } : undefined,
    });
  }

  async embed(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    let vectors: number[][];
    try {
      vectors = await this.#client.embedDocuments(texts);
    } catch (error) {
      throw toProviderError(error, this.#modelName);
    }
    checkVectors(vectors, texts.length, this.dimensions, this.model);
    return vectors.map(normalizeVector);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

type ErrorLike = {
  status?: unknown;
  headers?: unknown;
  code?: unknown;
  name?: unknown;
  message?: unknown;
  retryAfterMs?: unknown;
};

/** Translates whatever the OpenAI SDK or LangChain threw into our error, keeping Retry-After. */
export function toProviderError(error: unknown, model: string): EmbeddingProviderError {
  const e = (typeof error === "object" && error !== null ? error : {}) as ErrorLike;
  const status = typeof e.status === "number" ? e.status : undefined;
  const detail = typeof e.message === "string" ? e.message : String(error);
  const retryAfterMs = readRetryAfterMs(e.headers) ??
    (typeof e.retryAfterMs === "number" ? e.retryAfterMs : undefined);
  const quotaExhausted = status === 429 && (e.code === "insufficient_quota" ||
    /insufficient[_ ]quota|billing/i.test(detail));
  // No status means the request never got an answer (network, timeout): worth another try.
  const retryable = !quotaExhausted &&
    (status === undefined || status === 408 || status === 409 || status === 429 || status >= 500);
  const what = status === undefined ? "no answer" : `HTTP ${status}`;
  return new EmbeddingProviderError(`Cannot embed with ${model}: ${what}: ${detail}`, {
    retryable,
    retryAfterMs,
    status,
    cause: error,
  });
}

function readRetryAfterMs(headers: unknown): number | undefined {
  if (!(headers instanceof Headers)) return undefined;
  const ms = Number(headers.get("retry-after-ms") ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
