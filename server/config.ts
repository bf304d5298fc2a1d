/** Server settings, read once from the environment at start and checked with zod. */
import { z } from "zod";
import { isWellFormedApiKey } from "../shared/api-key-format.ts";

const positiveInt = (name: string, fallback: number) =>
  z.string().optional().transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) {
      ctx.addIssue({
        code: "custom",
        message: `${name} must be a positive whole number, got "${v}"`,
      });
      return z.NEVER;
    }
    return n;
  });

const ConfigSchema = z.object({
  PORT: z.string().optional().transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return 8000;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > 65535) {
      ctx.addIssue({ code: "custom", message: `PORT must be a port number 0-65535, got "${v}"` });
      return z.NEVER;
    }
    return n;
  }),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().optional().refine(
    (v) => v === undefined || v === "" || /^postgres(ql)?:\/\//.test(v),
    { message: "DATABASE_URL must be a postgres:// or postgresql:// URL" },
  ),
  ADMIN_API_KEY: z.string().optional().refine(
    (v) => v === undefined || v === "" || isWellFormedApiKey(v),
    {
      message:
        "ADMIN_API_KEY is not a well-formed key (evk_ + 38 characters with a valid checksum); " +
        "make one with `npm run -s new-key`",
    },
  ),
  RATE_LIMIT_PER_MINUTE: positiveInt("RATE_LIMIT_PER_MINUTE", 60),
  PUBLIC_RATE_LIMIT_PER_MINUTE: positiveInt("PUBLIC_RATE_LIMIT_PER_MINUTE", 600),
  REQUEST_READ_TIMEOUT_SECONDS: positiveInt("REQUEST_READ_TIMEOUT_SECONDS", 30),
  DATA_MIN_FREE_MB: positiveInt("DATA_MIN_FREE_MB", 128),
  TRUST_PROXY: z.enum(["true", "false", ""]).optional()
    .transform((v) => v === "true"),
  LOG_REQUESTS: z.enum(["true", "false", ""]).optional()
    .transform((v) => v !== "false"),
  // AI search. The local model is the default; an OpenAI key switches to OpenAI unless told not to.
  EMBEDDINGS_PROVIDER: z.enum(["openai", "local", ""], {
    error: () => "EMBEDDINGS_PROVIDER must be openai or local",
  }).optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().optional().refine((v) => !v || /^https?:\/\//.test(v), {
    message:
      "OPENAI_BASE_URL must be an http:// or https:// URL, such as https://api.openai.com/v1",
  }),
  EMBEDDINGS_MODEL: z.string().optional(),
  EMBEDDINGS_DIMENSIONS: z.string().optional().transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) {
      ctx.addIssue({
        code: "custom",
        message: `EMBEDDINGS_DIMENSIONS must be a positive whole number, got "${v}"`,
      });
      return z.NEVER;
    }
    return n;
  }),
  OPENAI_ENCODING_FORMAT: z.enum(["float", "base64", ""], {
    error: () => "OPENAI_ENCODING_FORMAT must be float or base64",
  }).optional(),
  EMBEDDINGS_LOCAL_NICENESS: z.string().optional().transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > 19) {
      ctx.addIssue({
        code: "custom",
        message: `EMBEDDINGS_LOCAL_NICENESS must be a whole number 0-19, got "${v}"`,
      });
      return z.NEVER;
    }
    return n;
  }),
  MCP_ALLOWED_ORIGINS: z.string().optional().transform((v) =>
    (v ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")
  ),
  OPERATOR_EMAILS: z.string().optional().transform((v, ctx) => {
    const emails = (v ?? "").split(",").map((e) => e.trim().toLowerCase()).filter(Boolean);
    for (const email of emails) {
      if (!z.email().safeParse(email).success) {
        ctx.addIssue({
          code: "custom",
          message:
            `OPERATOR_EMAILS must be email addresses separated by commas; "${email}" is not one`,
        });
        return z.NEVER;
      }
    }
    return emails;
  }),
  EMBEDDINGS_WORKER: z.enum(["in-process", "external", ""], {
    error: () => "EMBEDDINGS_WORKER must be in-process or external",
  }).optional(),
});

/** Which embedding provider to build, and how (server/embeddings/create-provider.ts). */
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
  /** Scheduling niceness (0-19) of the local model's thread; see LocalProviderOptions. */
  localNiceness?: number;
}

/** The parsed settings. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  adminApiKey?: string;
  defaultRateLimitPerMinute: number;
  publicRateLimitPerMinute: number;
  /** How long a request's head, and then its body, may take to arrive (30 s when absent). */
  requestReadTimeoutMs?: number;
  /**
   * Seconds of the rate limits' window: 60 (the limits above are per minute) unless a test
   * shortens it, so that waiting for a quota takes seconds. Not read from the environment.
   */
  rateLimitWindowSeconds?: number;
  /**
   * The embedded database only: free space its disk must keep; below it writes are refused with
   * 503 (see db/disk-space.ts). 128 MiB when absent.
   */
  dataMinFreeBytes?: number;
  /** Whether to take the client address from X-Forwarded-For (behind a proxy). */
  trustProxy: boolean;
  logRequests: boolean;
  /** The embedding provider; the local model when absent. */
  embeddings?: EmbeddingSettings;
  /** Where the embedding worker runs: in this process (default) or in `deno task worker`. */
  embeddingWorker?: "in-process" | "external";
  /** Hostnames whose browser pages may call /mcp, besides localhost (DNS rebinding guard). */
  mcpAllowedOrigins?: string[];
  /** Lower-cased addresses of the site accounts that may act as operators (review queue). */
  operatorEmails?: string[];
}

/** Thrown when a setting is wrong; its message names the variable and how to fix it. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Reads the settings from an environment map. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Cannot start: invalid settings\n${lines.join("\n")}`);
  }
  const v = parsed.data;
  return {
    port: v.PORT,
    host: v.HOST,
    dataDir: v.DATA_DIR,
    databaseUrl: v.DATABASE_URL || undefined,
    adminApiKey: v.ADMIN_API_KEY || undefined,
    defaultRateLimitPerMinute: v.RATE_LIMIT_PER_MINUTE,
    publicRateLimitPerMinute: v.PUBLIC_RATE_LIMIT_PER_MINUTE,
    requestReadTimeoutMs: v.REQUEST_READ_TIMEOUT_SECONDS * 1000,
    dataMinFreeBytes: v.DATA_MIN_FREE_MB * 2 ** 20,
    trustProxy: v.TRUST_PROXY,
    logRequests: v.LOG_REQUESTS,
    embeddings: {
      provider: v.EMBEDDINGS_PROVIDER || (v.OPENAI_API_KEY ? "openai" : "local"),
      openaiApiKey: v.OPENAI_API_KEY || undefined,
      openaiBaseUrl: v.OPENAI_BASE_URL || undefined,
      model: v.EMBEDDINGS_MODEL || undefined,
      dimensions: v.EMBEDDINGS_DIMENSIONS,
      encodingFormat: v.OPENAI_ENCODING_FORMAT || undefined,
      localNiceness: v.EMBEDDINGS_LOCAL_NICENESS,
    },
    embeddingWorker: v.EMBEDDINGS_WORKER || "in-process",
    mcpAllowedOrigins: v.MCP_ALLOWED_ORIGINS,
    operatorEmails: v.OPERATOR_EMAILS,
  };
}
