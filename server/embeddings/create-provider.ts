/** Chooses and builds the embedding provider from plain settings (parsed from env at start). */
import { LocalProvider } from "./local-provider.ts";
import { DEFAULT_OPENAI_MODEL, OpenAIProvider } from "./openai-provider.ts";
import type { EmbeddingProvider } from "./provider.ts";

export interface EmbeddingSettings {
  /** `local` is the offline default; `openai` needs an API key. */
  provider: "openai" | "local";
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  /** OpenAI model name; ignored by the local provider. */
  model?: string;
  dimensions?: number;
  /** Vector wire format for OpenAI-compatible servers that lack base64. */
  encodingFormat?: "float" | "base64";
}

/** Reads the provider settings from environment variables, as documented in the README. */
export function embeddingSettingsFromEnv(
  env: (name: string) => string | undefined,
): EmbeddingSettings {
  const apiKey = env("OPENAI_API_KEY") || undefined;
  const chosen = env("EMBEDDINGS_PROVIDER") || (apiKey ? "openai" : "local");
  if (chosen !== "openai" && chosen !== "local") {
    throw new Error(`Cannot use EMBEDDINGS_PROVIDER=${chosen}: choose openai or local`);
  }
  const dimensionsText = env("EMBEDDINGS_DIMENSIONS") || undefined;
  const dimensions = dimensionsText === undefined ? undefined : Number(dimensionsText);
  if (dimensions !== undefined && !(Number.isInteger(dimensions) && dimensions > 0)) {
    throw new Error(`Cannot use EMBEDDINGS_DIMENSIONS=${dimensionsText}: give a positive integer`);
  }
  const encodingFormat = env("OPENAI_ENCODING_FORMAT") || undefined;
  if (encodingFormat !== undefined && encodingFormat !== "float" && encodingFormat !== "base64") {
    throw new Error(`Cannot use OPENAI_ENCODING_FORMAT=${encodingFormat}: choose float or base64`);
  }
  return {
    provider: chosen,
    encodingFormat,
    openaiApiKey: apiKey,
    openaiBaseUrl: env("OPENAI_BASE_URL") || undefined,
    model: env("EMBEDDINGS_MODEL") || undefined,
    dimensions,
  };
}

/** Builds the provider the settings name; fails at start, not at first use, when they are wrong. */
export function createEmbeddingProvider(settings: EmbeddingSettings): EmbeddingProvider {
  if (settings.provider === "local") {
    const local = new LocalProvider();
    if (settings.dimensions !== undefined && settings.dimensions !== local.dimensions) {
      throw new Error(
        `Cannot use EMBEDDINGS_DIMENSIONS=${settings.dimensions} with the local provider: it makes ${local.dimensions}`,
      );
    }
    return local;
  }
  if (!settings.openaiApiKey) {
    throw new Error("Cannot use the openai embedding provider: OPENAI_API_KEY is not set");
  }
  return new OpenAIProvider({
    apiKey: settings.openaiApiKey,
    baseUrl: settings.openaiBaseUrl,
    model: settings.model ?? DEFAULT_OPENAI_MODEL,
    dimensions: settings.dimensions,
    encodingFormat: settings.encodingFormat,
  });
}
