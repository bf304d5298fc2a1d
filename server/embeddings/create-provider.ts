/** Chooses and builds the embedding provider from plain settings (parsed by server/config.ts). */
import { LocalProvider } from "./local-provider.ts";
import { OpenAIProvider } from "./openai-provider.ts";
import type { EmbeddingProvider } from "./provider.ts";
import { DEFAULT_OPENAI_MODEL, type EmbeddingSettings } from "../config.ts";

/** Builds the provider the settings name; fails at start, not at first use, when they are wrong. */
export function createEmbeddingProvider(settings: EmbeddingSettings): EmbeddingProvider {
  if (settings.provider === "local") {
    const local = new LocalProvider({
      niceness: settings.localNiceness,
      threads: settings.localThreads,
    });
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
