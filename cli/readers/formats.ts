/** The input formats and how one is recognised. */
import { InputError } from "../errors.ts";

export const FORMATS = ["ics", "csv", "json", "ndjson"] as const;
export type Format = typeof FORMATS[number];

const BY_EXTENSION: Record<string, Format> = {
  ics: "ics",
  ical: "ics",
  ifb: "ics",
  icalendar: "ics",
  csv: "csv",
  tsv: "csv",
  tab: "csv",
  json: "json",
  ndjson: "ndjson",
  jsonl: "ndjson",
};

const BY_MEDIA_TYPE: Record<string, Format> = {
  "text/calendar": "ics",
  "text/csv": "csv",
  "text/tab-separated-values": "csv",
  "application/json": "json",
  "application/x-ndjson": "ndjson",
  "application/ndjson": "ndjson",
  "application/jsonl": "ndjson",
};

/** The format a file name's extension names, if any. */
export function formatFromName(name: string): Format | null {
  const match = /\.([A-Za-z0-9]+)$/.exec(name);
  return match ? BY_EXTENSION[match[1].toLowerCase()] ?? null : null;
}

/** The format an HTTP Content-Type names, if any. */
export function formatFromMediaType(contentType: string | null): Format | null {
  if (!contentType) return null;
  return BY_MEDIA_TYPE[contentType.split(";")[0].trim().toLowerCase()] ?? null;
}

/** The format the first text of a stream looks like, if it looks like one. */
export function formatFromContent(head: string): Format | null {
  const text = head.replace(/^\uFEFF/, "").trimStart();
  if (/^BEGIN:VCALENDAR/i.test(text)) return "ics";
  if (text.startsWith("[")) return "json";
  if (text.startsWith("{")) {
    const firstLine = text.split(/\r?\n/, 1)[0];
    try {
      JSON.parse(firstLine);
      return "ndjson";
    } catch {
      return "json";
    }
  }
  if (/^[^\r\n]*[,;\t][^\r\n]*(\r?\n|$)/.test(text)) return "csv";
  return null;
}

/** Checks a `--format` value. */
export function parseFormat(value: string): Format {
  const format = value.toLowerCase();
  if ((FORMATS as readonly string[]).includes(format)) return format as Format;
  throw new InputError(`Cannot use --format ${value}: use one of ${FORMATS.join(", ")}`);
}
