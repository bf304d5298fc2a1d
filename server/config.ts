/** Server settings, read once from the environment at start and checked with zod. */
import { z } from "zod";
import { isWellFormedApiKey } from "../shared/api-key-format.ts";

/** The OpenAI embedding model when EMBEDDINGS_MODEL is unset. */
export const DEFAULT_OPENAI_MODEL = "text-embedding-3-small";
/** The lowest priority: the local model still gets every idle cycle, and nothing waits for it. */
export const DEFAULT_LOCAL_NICENESS = 19;
/**
 * Threads running the local model unless EMBEDDINGS_LOCAL_THREADS says otherwise: two where there
 * are two cores. At niceness 19 they take only idle CPU, and an idle machine's second core doubles
 * the drain of a backlog; the cost is a second copy of the model in memory (about 200 MB), which
 * is loaded only once a backlog keeps the first thread busy.
 */
export const DEFAULT_LOCAL_THREADS = Math.max(1, Math.min(2, navigator.hardwareConcurrency || 1));

/** Budgets of a contributor none of whose keys is trusted (docs/unreviewed-contributors.md). */
export interface UnreviewedBudgets {
  /** Stored upcoming events at most; a push past it is refused whole. */
  maxUpcomingEvents: number;
  /** Active (unrevoked, unexpired) keys at most. */
  maxKeys: number;
  /** The rate limit of a key such a contributor makes on the dashboard. */
  rateLimitPerMinute: number;
}

/** The budgets when no setting names them. */
export const UNREVIEWED_DEFAULTS: UnreviewedBudgets = {
  maxUpcomingEvents: 1000,
  maxKeys: 3,
  rateLimitPerMinute: 10,
};

/**
 * Waits after each failed webhook attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, and the rest of
 * 24 hours, after which the webhook is disabled (Standard Webhooks' suggested schedule).
 */
export const DEFAULT_WEBHOOK_RETRY_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 23095];

/** What a setting's row in docs/settings.md says: its meaning, and its value when unset. */
export interface SettingDoc {
  description: string;
  /** The value when unset, as the docs write it. */
  default: string;
}

/** A whole number within `min..max`; `fallback` when unset or blank. */
const wholeNumber = (name: string, rules: { min: number; max?: number; fallback: number }) =>
  z.string().optional().transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return rules.fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < rules.min || (rules.max !== undefined && n > rules.max)) {
      const range = rules.max === undefined
        ? (rules.min > 0 ? "a positive whole number" : "a whole number")
        : `a whole number ${rules.min}-${rules.max}`;
      ctx.addIssue({ code: "custom", message: `${name} must be ${range}, got "${v}"` });
      return z.NEVER;
    }
    return n;
  });

const positiveInt = (name: string, fallback: number, description: string) =>
  wholeNumber(name, { min: 1, fallback }).meta({ description, default: `\`${fallback}\`` });

/** A text setting; `fallback` when unset or blank. */
const textWithDefault = (fallback: string, description: string) =>
  z.string().optional().transform((v) => v || fallback)
    .meta({ description, default: `\`${fallback}\`` });

/** A comma-separated list. */
const list = (description: string) =>
  z.string().optional().transform((v) =>
    (v ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")
  ).meta({ description, default: "unset" });

const flag = (fallback: boolean, description: string) =>
  z.enum(["true", "false", ""]).optional()
    .transform((v) => (v === "" || v === undefined ? fallback : v === "true"))
    .meta({ description, default: `\`${fallback}\`` });

/** The environment variables the server reads, each with its check, default and documentation. */
export const SettingsSchema = z.object({
  PORT: wholeNumber("PORT", { min: 0, max: 65535, fallback: 8000 })
    .meta({ description: "HTTP port (`0` picks a free one)", default: "`8000`" }),
  HOST: textWithDefault("0.0.0.0", "Address to listen on"),
  PUBLIC_URL: z.string().optional().transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return undefined;
    let url: URL | undefined;
    try {
      url = new URL(v.trim());
    } catch {
      // reported below
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash) {
      ctx.addIssue({
        code: "custom",
        message: `PUBLIC_URL must be an absolute http:// or https:// URL such as ` +
          `https://events.example.org, got "${v}"`,
      });
      return z.NEVER;
    }
    return url.href.replace(/\/+$/, "");
  }).meta({
    description: "The service's public address, for absolute links in mail, feeds and " +
      "federation (ActivityPub ids); unset: the request's origin where a request is at hand",
    default: "unset",
  }),
  DATA_DIR: textWithDefault(
    "./data",
    "Directory of the embedded database (when `DATABASE_URL` is unset)",
  ),
  DATABASE_URL: z.string().optional().refine(
    (v) => v === undefined || v === "" || /^postgres(ql)?:\/\//.test(v),
    { message: "DATABASE_URL must be a postgres:// or postgresql:// URL" },
  ).transform((v) => v || undefined).meta({
    description: "`postgres://…` URL of a PostgreSQL server to use instead of the embedded one",
    default: "unset",
  }),
  ADMIN_API_KEY: z.string().optional().refine(
    (v) => v === undefined || v === "" || isWellFormedApiKey(v),
    {
      message:
        "ADMIN_API_KEY is not a well-formed key (evk_ + 38 characters with a valid checksum); " +
        "make one with `npm run -s new-key`",
    },
  ).transform((v) => v || undefined).meta({
    description:
      "The operator key (make one with `npm run -s new-key`); unset closes the operator API",
    default: "unset",
  }),
  RATE_LIMIT_PER_MINUTE: positiveInt(
    "RATE_LIMIT_PER_MINUTE",
    60,
    "Default request limit of new keys",
  ),
  PUBLIC_RATE_LIMIT_PER_MINUTE: positiveInt(
    "PUBLIC_RATE_LIMIT_PER_MINUTE",
    600,
    "Limit of public reads per client address",
  ),
  UNREVIEWED_MAX_UPCOMING_EVENTS: positiveInt(
    "UNREVIEWED_MAX_UPCOMING_EVENTS",
    UNREVIEWED_DEFAULTS.maxUpcomingEvents,
    "Upcoming events a contributor with no trusted key may have stored; a push past it is " +
      "refused whole (docs/unreviewed-contributors.md)",
  ),
  UNREVIEWED_MAX_KEYS: positiveInt(
    "UNREVIEWED_MAX_KEYS",
    UNREVIEWED_DEFAULTS.maxKeys,
    "Active keys a contributor with no trusted key may hold",
  ),
  UNREVIEWED_RATE_LIMIT_PER_MINUTE: positiveInt(
    "UNREVIEWED_RATE_LIMIT_PER_MINUTE",
    UNREVIEWED_DEFAULTS.rateLimitPerMinute,
    "Request limit of a dashboard key made by a contributor with no trusted key (operators can " +
      "raise it per key)",
  ),
  REQUEST_READ_TIMEOUT_SECONDS: positiveInt(
    "REQUEST_READ_TIMEOUT_SECONDS",
    30,
    "How long a client may take to send a request's head, and then its body; past it: 408 and " +
      "the connection closed (idle connections close after twice this)",
  ),
  DATA_MIN_FREE_MB: positiveInt(
    "DATA_MIN_FREE_MB",
    128,
    "Embedded database only: free disk space to keep where `DATA_DIR` is; below it, requests " +
      "that write get 503 (reads go on) and embedding waits",
  ),
  TRUST_PROXY: flag(
    false,
    "Take the client address from `X-Forwarded-For`, and the site's origin from " +
      "`X-Forwarded-Proto` and `X-Forwarded-Host` (only behind a proxy you run)",
  ),
  LOG_REQUESTS: flag(true, "One JSON log line per request, with its request id"),
  // AI search. The local model is the default; an OpenAI key switches to OpenAI unless told not to.
  EMBEDDINGS_PROVIDER: z.enum(["openai", "local", ""], {
    error: () => "EMBEDDINGS_PROVIDER must be openai or local",
  }).optional().meta({
    description: "Where embeddings come from",
    default: "`openai` when `OPENAI_API_KEY` is set, else `local`",
  }),
  OPENAI_API_KEY: z.string().optional().meta({
    description: "Key of the OpenAI (or compatible) embeddings API",
    default: "unset",
  }),
  OPENAI_BASE_URL: z.string().optional().refine((v) => !v || /^https?:\/\//.test(v), {
    message:
      "OPENAI_BASE_URL must be an http:// or https:// URL, such as https://api.openai.com/v1",
  }).meta({ description: "Any OpenAI-compatible embeddings server", default: "OpenAI's" }),
  EMBEDDINGS_MODEL: z.string().optional().meta({
    description: "Embedding model (openai provider)",
    default: `\`${DEFAULT_OPENAI_MODEL}\``,
  }),
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
  }).meta({
    description: "Vector size asked of the model (openai provider)",
    default: "model default",
  }),
  OPENAI_ENCODING_FORMAT: z.enum(["float", "base64", ""], {
    error: () => "OPENAI_ENCODING_FORMAT must be float or base64",
  }).optional().meta({
    description: "`float` for servers that do not speak base64",
    default: "`base64`",
  }),
  EMBEDDINGS_LOCAL_NICENESS: wholeNumber("EMBEDDINGS_LOCAL_NICENESS", {
    min: 0,
    max: 19,
    fallback: DEFAULT_LOCAL_NICENESS,
  }).meta({
    description: "Scheduling priority (0-19, Linux) of the local model's thread: 19 gives " +
      "requests the CPU first; 0 competes as an equal",
    default: `\`${DEFAULT_LOCAL_NICENESS}\``,
  }),
  EMBEDDINGS_LOCAL_THREADS: wholeNumber("EMBEDDINGS_LOCAL_THREADS", {
    min: 1,
    max: 16,
    fallback: DEFAULT_LOCAL_THREADS,
  }).meta({
    description: "Threads running the local model, each with its own copy (about 200 MB): a " +
      "backlog drains about that many times faster where as many cores are idle",
    default: "`2` (`1` on one core)",
  }),
  EMBEDDINGS_WORKER: z.enum(["in-process", "external", ""], {
    error: () => "EMBEDDINGS_WORKER must be in-process or external",
  }).optional().transform((v) => v || "in-process").meta({
    description:
      "`external` when the embedding worker runs as its own process (`deno task worker`)",
    default: "`in-process`",
  }),
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
  }).meta({
    description: "Comma-separated addresses of site accounts that may be operators (review " +
      "queue), once they confirm the operator key",
    default: "unset",
  }),
  SAVED_SEARCHES_MAX: positiveInt(
    "SAVED_SEARCHES_MAX",
    20,
    "Saved searches an account may hold (docs/alerts.md); past it a save gets 409 " +
      "`saved_searches_limit`",
  ),
  WEBHOOKS_ALLOW_PRIVATE: flag(
    false,
    "Let webhooks reach loopback, private and link-local addresses (tests only: it opens the " +
      "inside network to anyone who can save a search)",
  ),
  WEBHOOK_RETRY_SECONDS: z.string().optional().transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return DEFAULT_WEBHOOK_RETRY_SECONDS;
    const waits = v.split(",").map((s) => Number(s.trim()));
    if (waits.length > 50 || !waits.every((n) => Number.isInteger(n) && n >= 0)) {
      ctx.addIssue({
        code: "custom",
        message: `WEBHOOK_RETRY_SECONDS must be whole seconds separated by commas (at most 50), ` +
          `such as 5,300,1800; got "${v}"`,
      });
      return z.NEVER;
    }
    return waits;
  }).meta({
    description: "Seconds to wait after each failed webhook attempt, in order; once spent, the " +
      "search's webhook is disabled and its owner told",
    default: `\`${DEFAULT_WEBHOOK_RETRY_SECONDS.join(",")}\` (24 hours)`,
  }),
  SMTP_URL: z.string().optional().refine(
    (v) => v === undefined || v === "" || /^smtps?:\/\//.test(v),
    { message: "SMTP_URL must be an smtp:// or smtps:// URL, such as smtps://user:pass@host:465" },
  ).transform((v) => v || undefined).meta({
    description: "The mail server for alert mails and address confirmations " +
      "(`smtp://user:password@host:587`, `smtps://…:465`); unset: no mail is sent",
    default: "unset",
  }),
  MAIL_FROM: textWithDefault(
    "Tech events <alerts@localhost>",
    "The sender of alert mails and address confirmations",
  ),
  ALERT_CLAIM_SECONDS: positiveInt(
    "ALERT_CLAIM_SECONDS",
    60,
    "How long a worker holds a notice it is delivering; a server that stops (or dies) " +
      "mid-delivery leaves it to be delivered again after this",
  ),
  CFP_REMINDER_DAYS: positiveInt(
    "CFP_REMINDER_DAYS",
    3,
    "A saved search is told once, per event it told of, when the event's call for papers " +
      "closes within this many days (docs/alerts.md)",
  ),
  ALERT_MATCH_IDLE_MS: positiveInt(
    "ALERT_MATCH_IDLE_MS",
    200,
    "Matching new events against the saved searches waits for a pause of this many milliseconds " +
      "in the pushes (docs/alerts.md)",
  ),
  ALERT_MATCH_MAX_DELAY_SECONDS: positiveInt(
    "ALERT_MATCH_MAX_DELAY_SECONDS",
    5,
    "The longest a pushed event waits for that pause before it is matched anyway (a steady " +
      "stream of pushes); longer means fewer, larger matching passes",
  ),
  ALERT_MATCH_BATCH: positiveInt(
    "ALERT_MATCH_BATCH",
    1000,
    "Events one matching pass takes at most (a backlog is matched in passes of this many)",
  ),
  FEDERATION: flag(
    true,
    "ActivityPub: the calendar's actors (`events`, one per topic, one per city) can be followed " +
      "from the fediverse (docs/federation.md)",
  ),
  FEDERATION_ALLOW_PRIVATE: flag(
    false,
    "Let federation reach servers on private and loopback addresses (tests only)",
  ),
  MCP_ALLOWED_ORIGINS: list(
    "Comma-separated host names whose web pages may call `/mcp` (besides localhost); requests " +
      "without `Origin` always pass",
  ),
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
  /** Threads running the local model; see LocalProviderOptions. */
  localThreads?: number;
}

/** The settings as the server uses them, made from the environment variables. */
export const ConfigSchema = SettingsSchema.transform((v) => ({
  port: v.PORT,
  host: v.HOST,
  /** The public base URL without a trailing slash, when set (absolute links outside a request). */
  publicUrl: v.PUBLIC_URL,
  dataDir: v.DATA_DIR,
  databaseUrl: v.DATABASE_URL,
  adminApiKey: v.ADMIN_API_KEY,
  defaultRateLimitPerMinute: v.RATE_LIMIT_PER_MINUTE,
  publicRateLimitPerMinute: v.PUBLIC_RATE_LIMIT_PER_MINUTE,
  /** Budgets of unreviewed contributors; UNREVIEWED_DEFAULTS for any left out. */
  unreviewed: {
    maxUpcomingEvents: v.UNREVIEWED_MAX_UPCOMING_EVENTS,
    maxKeys: v.UNREVIEWED_MAX_KEYS,
    rateLimitPerMinute: v.UNREVIEWED_RATE_LIMIT_PER_MINUTE,
  } as Partial<UnreviewedBudgets>,
  /** How long a request's head, and then its body, may take to arrive. */
  requestReadTimeoutMs: v.REQUEST_READ_TIMEOUT_SECONDS * 1000,
  /** The embedded database only: free space its disk must keep (see db/disk-space.ts). */
  dataMinFreeBytes: v.DATA_MIN_FREE_MB * 2 ** 20,
  /** Whether to trust X-Forwarded-For, -Proto and -Host (behind a proxy). */
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
    localThreads: v.EMBEDDINGS_LOCAL_THREADS,
  } as EmbeddingSettings,
  /** Where the embedding worker runs: in this process, or in `deno task worker`. */
  embeddingWorker: v.EMBEDDINGS_WORKER,
  /** Hostnames whose browser pages may call /mcp, besides localhost (DNS rebinding guard). */
  mcpAllowedOrigins: v.MCP_ALLOWED_ORIGINS,
  /** Lower-cased addresses of the site accounts that may act as operators (review queue). */
  operatorEmails: v.OPERATOR_EMAILS,
  /** Saved searches and their notices (docs/alerts.md). */
  alerts: {
    maxSavedSearches: v.SAVED_SEARCHES_MAX,
    webhooksAllowPrivate: v.WEBHOOKS_ALLOW_PRIVATE,
    webhookRetrySeconds: v.WEBHOOK_RETRY_SECONDS,
    claimMs: v.ALERT_CLAIM_SECONDS * 1000,
    smtpUrl: v.SMTP_URL,
    mailFrom: v.MAIL_FROM,
    cfpReminderDays: v.CFP_REMINDER_DAYS,
    /** The percolator's pause, longest wait and pass size (server/alerts/percolator.ts). */
    matching: {
      idleMs: v.ALERT_MATCH_IDLE_MS,
      maxDelayMs: v.ALERT_MATCH_MAX_DELAY_SECONDS * 1000,
      batchSize: v.ALERT_MATCH_BATCH,
    },
  },
  /** ActivityPub on, and whether it may reach private addresses (tests). */
  federation: { enabled: v.FEDERATION, allowPrivateAddress: v.FEDERATION_ALLOW_PRIVATE },
}));

/** The parsed settings. */
export type Config = z.output<typeof ConfigSchema> & {
  /**
   * Seconds of the rate limits' window: 60 (the limits above are per minute) unless a test
   * shortens it, so that waiting for a quota takes seconds. Not read from the environment.
   */
  rateLimitWindowSeconds?: number;
  /**
   * The alert delivery worker's poll and the period of daily digests in milliseconds, shortened
   * by tests; and `false` to run none (a test of what a stopped worker leaves). Not read from
   * the environment.
   */
  alertWorker?: { pollMs?: number; digestPeriodMs?: number; cfpReminderEveryMs?: number } | false;
};

/** The budgets of unreviewed contributors in force. */
export function unreviewedBudgets(config: Config): UnreviewedBudgets {
  return { ...UNREVIEWED_DEFAULTS, ...config.unreviewed };
}

/** Thrown when a setting is wrong; its message names the variable and how to fix it. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The default settings with `overrides`: for tests and scripts that start a server in code. */
export function configWith(overrides: Partial<Config>): Config {
  const given = Object.entries(overrides).filter(([, value]) => value !== undefined);
  return { ...loadConfig({}), ...Object.fromEntries(given) } as Config;
}

/** Reads the settings from an environment map; every unset one takes its default. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Cannot start: invalid settings\n${lines.join("\n")}`);
  }
  return parsed.data;
}
