/** Parses and checks option values once, at the edge; commands receive only checked settings. */
import { isWellFormedApiKey } from "../shared/api-key-format.ts";
import { EVENT_FIELDS, MAX_BATCH_EVENTS, PLATFORMS } from "../shared/event-schema.ts";
import { dayBounds, isDateOnly, isIanaTimeZone } from "../shared/zoned-time.ts";
import { AuthError, UsageError } from "./errors.ts";
import { parseFieldMap } from "./readers/field-map.ts";
import { closestName } from "./readers/did-you-mean.ts";
import { type Format, parseFormat } from "./readers/formats.ts";
import type { ReaderOptions } from "./readers/record.ts";
import type { ParallelSettings } from "./readers/csv-parallel.ts";
import { availableParallelism, loadavg } from "node:os";

export const DEFAULT_API_URL = "http://localhost:8000";

/** How many bad records (invalid or rejected) a run may have and still succeed. */
export type InvalidAllowance = { count: number } | { percent: number };

/** How to read an input: the readers' settings (all but sourceName), and how to open and report. */
export interface ReadSettings extends Omit<ReaderOptions, "sourceName"> {
  format?: Format;
  timeoutMs: number;
  json: boolean;
  verbose: boolean;
  strict: boolean;
  /** Null: none may be bad. */
  maxInvalid: { text: string; allowance: InvalidAllowance } | null;
  /** Milliseconds between progress lines when stderr is not a terminal. */
  progressIntervalMs: number;
  /** Large CSV inputs are checked on worker threads running this script (the CLI's bundle). */
  parallel?: ParallelSettings;
}

/** Where the service is and the key to use. */
export interface ApiSettings {
  apiUrl: string;
  apiKey: string;
  timeoutMs: number;
}

/** Raw reading options as commander collects them. */
export interface RawReadOptions {
  format?: string;
  platform?: string;
  sourceUrl?: string;
  timezone?: string;
  horizon?: string;
  from?: string;
  map?: string[];
  idFrom?: string;
  delimiter?: string;
  timeout?: string;
  json?: boolean;
  verbose?: boolean;
  strict?: boolean;
  maxInvalid?: string;
  calendar?: string;
}

/** A whole number within bounds, for an option. */
export function integerOption(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
    throw new UsageError(`Cannot use ${name} ${value}: give a whole number from ${min} to ${max}`);
  }
  return n;
}

function parseIdFrom(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const fields = value.split(",").map((f) => f.trim()).filter((f) => f !== "");
  if (fields.length === 0) {
    throw new UsageError(`Cannot use --id-from ${value}: name fields, such as title,starts_at`);
  }
  for (const field of fields) {
    if (!(EVENT_FIELDS as readonly string[]).includes(field) || field === "external_id") {
      const guess = closestName(field, EVENT_FIELDS);
      throw new UsageError(
        `Cannot use --id-from ${value}: ${field} is not an event field` +
          (guess && guess !== "external_id" ? ` (did you mean ${guess}?)` : "") +
          "; map a column or field to one with --map first",
      );
    }
  }
  return fields;
}

const DELIMITERS: Record<string, string> = {
  ",": ",",
  ";": ";",
  "|": "|",
  tab: "\t",
  "\\t": "\t",
  "\t": "\t",
};

function parseDelimiter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const delimiter = DELIMITERS[value.toLowerCase()];
  if (delimiter === undefined) {
    throw new UsageError(`Cannot use --delimiter ${value}: use , or ; or | or tab`);
  }
  return delimiter;
}

function parseFrom(value: string | undefined): Date {
  if (value === undefined) return new Date();
  // A date is the start of that day in UTC, as a date filter is on every surface (docs/dates.md).
  const date = new Date(isDateOnly(value) ? dayBounds(value, "UTC")?.startMs ?? NaN : value);
  if (Number.isNaN(date.getTime())) {
    throw new UsageError(
      `Cannot use --from ${value}: give a date such as 2026-01-01 or an ISO 8601 date-time`,
    );
  }
  return date;
}

/** `--max-invalid N` (records) or `P%` (of the records read). */
export function parseMaxInvalid(value: string): InvalidAllowance {
  const text = value.trim();
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text);
  if (percent && Number(percent[1]) <= 100) return { percent: Number(percent[1]) };
  if (/^\d+$/.test(text)) return { count: Number(text) };
  throw new UsageError(
    `Cannot use --max-invalid ${value}: give a number of records (such as 10) or a share of ` +
      "the records read (such as 2%)",
  );
}

/** Whether `bad` bad records out of `records` read are within the allowance. */
export function withinAllowance(
  allowance: InvalidAllowance | null,
  bad: number,
  records: number,
): boolean {
  if (bad === 0) return true;
  if (allowance === null) return false;
  if ("count" in allowance) return bad <= allowance.count;
  return records > 0 && (bad * 100) / records <= allowance.percent;
}

/**
 * Worker threads for large CSV inputs: one per idle core (at most 4), none when fewer than two
 * cores are idle (threads that wait for a core only add their start-up), unless EVENTS_WORKERS
 * says how many (0: none). Inputs under 2 MB (EVENTS_PARALLEL_MIN_BYTES) are not worth it.
 */
function parallelSettings(
  env: Record<string, string | undefined>,
  workerUrl: string,
): ParallelSettings {
  const idle = Math.round(availableParallelism() - loadavg()[0]);
  const cores = idle < 2 ? 0 : Math.min(4, idle);
  return {
    workerUrl,
    workers: integerOption("EVENTS_WORKERS", env.EVENTS_WORKERS ?? String(cores), 0, 64),
    minBytes: integerOption(
      "EVENTS_PARALLEL_MIN_BYTES",
      env.EVENTS_PARALLEL_MIN_BYTES ?? String(2 * 1024 * 1024),
      0,
      Number.MAX_SAFE_INTEGER,
    ),
  };
}

function parseCalendar(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(value)) {
    throw new UsageError(
      `Cannot use --calendar ${value}: give a name of letters, digits, dots, dashes or ` +
        "underscores (at most 100), such as berlin-meetups",
    );
  }
  return value;
}

/** Checks the reading options. */
export function readSettings(
  raw: RawReadOptions,
  env: Record<string, string | undefined> = {},
  workerUrl?: string,
): ReadSettings {
  if (raw.platform !== undefined && !(PLATFORMS as readonly string[]).includes(raw.platform)) {
    throw new UsageError(
      `Cannot use --platform ${raw.platform}: use one of ${PLATFORMS.join(", ")}`,
    );
  }
  if (raw.timezone !== undefined && !isIanaTimeZone(raw.timezone)) {
    throw new UsageError(
      `Cannot use --timezone ${raw.timezone}: give an IANA zone name such as Europe/Berlin`,
    );
  }
  if (raw.sourceUrl !== undefined && !/^https?:\/\/\S+$/i.test(raw.sourceUrl)) {
    throw new UsageError(`Cannot use --source-url ${raw.sourceUrl}: give an absolute http(s) URL`);
  }
  return {
    format: raw.format === undefined ? undefined : parseFormat(raw.format),
    platform: raw.platform,
    sourceUrl: raw.sourceUrl,
    timezone: raw.timezone,
    horizonDays: integerOption("--horizon", raw.horizon ?? "365", 1, 36_500),
    from: parseFrom(raw.from),
    fieldMap: parseFieldMap(raw.map ?? []),
    idFrom: parseIdFrom(raw.idFrom),
    calendar: parseCalendar(raw.calendar),
    delimiter: parseDelimiter(raw.delimiter),
    timeoutMs: integerOption("--timeout", raw.timeout ?? "30", 1, 3600) * 1000,
    json: raw.json ?? false,
    verbose: raw.verbose ?? false,
    strict: raw.strict ?? false,
    maxInvalid: raw.maxInvalid === undefined
      ? null
      : { text: raw.maxInvalid, allowance: parseMaxInvalid(raw.maxInvalid) },
    progressIntervalMs:
      integerOption("EVENTS_PROGRESS_SECONDS", env.EVENTS_PROGRESS_SECONDS ?? "5", 1, 3600) *
      1000,
    parallel: workerUrl === undefined ? undefined : parallelSettings(env, workerUrl),
  };
}

/**
 * The service URL and key from options or environment; a malformed key fails here, offline.
 * Admin commands take the operator key: --api-key, else ADMIN_API_KEY (the variable the server
 * reads it from), else EVENTS_API_KEY.
 */
export function apiSettings(
  raw: { apiUrl?: string; apiKey?: string; timeout?: string },
  env: Record<string, string | undefined>,
  options: { admin?: boolean } = {},
): ApiSettings {
  const apiUrl = raw.apiUrl ?? env.EVENTS_API_URL ?? DEFAULT_API_URL;
  try {
    const url = new URL(apiUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http");
  } catch {
    throw new UsageError(
      `Cannot use the API URL ${apiUrl}: give an http(s) URL such as ${DEFAULT_API_URL}`,
    );
  }
  const fromEnv = options.admin ? env.ADMIN_API_KEY || env.EVENTS_API_KEY : env.EVENTS_API_KEY;
  const apiKey = raw.apiKey ?? fromEnv;
  const where = options.admin
    ? "pass --api-key or set ADMIN_API_KEY (or EVENTS_API_KEY)"
    : "pass --api-key or set EVENTS_API_KEY";
  if (!apiKey) {
    throw new AuthError(`No ${options.admin ? "operator " : "API "}key: ${where}`);
  }
  if (!isWellFormedApiKey(apiKey.trim())) {
    // The key itself is never echoed: it may be a real secret with a typo.
    throw new AuthError(
      "The API key is malformed (a key is evk_ followed by 38 letters and digits with a valid " +
        `checksum); check it: ${where}`,
    );
  }
  return {
    apiUrl,
    apiKey: apiKey.trim(),
    timeoutMs: integerOption("--timeout", raw.timeout ?? "30", 1, 3600) * 1000,
  };
}

/** Checks --batch-size and --max-retries. */
export function sendSettings(raw: { batchSize?: string; maxRetries?: string }) {
  return {
    batchSize: integerOption(
      "--batch-size",
      raw.batchSize ?? String(MAX_BATCH_EVENTS),
      1,
      MAX_BATCH_EVENTS,
    ),
    maxRetries: integerOption("--max-retries", raw.maxRetries ?? "5", 0, 100),
  };
}
