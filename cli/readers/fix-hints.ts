/**
 * Adds to a schema problem the option or field that fixes it in the user's own input: a CSV
 * column, a JSON field, an ICS property, or a command-line option.
 */
import { EVENT_FIELDS } from "../../shared/event-schema.ts";
import { closestName } from "./did-you-mean.ts";
import type { Format } from "./formats.ts";

const MISSING = /is required$|must not be empty$/;

type Hints = Partial<Record<Format | "json", string>>;

const HINTS_FOR_MISSING: Record<string, Hints> = {
  source_url: {
    ics: "add a URL property to the event or pass --source-url URL",
    csv: "fill a source_url column (or --map COLUMN=source_url) or pass --source-url URL",
    json: 'add "source_url" (or --map FIELD=source_url) or pass --source-url URL',
  },
  title: {
    ics: "add a SUMMARY to the event",
    csv: "fill the title column (or --map COLUMN=title)",
    json: 'add "title" (or --map FIELD=title)',
  },
  external_id: {
    csv: "fill an external_id column, map one with --map COLUMN=external_id, or make one with " +
      "--id-from COLUMN,COLUMN",
    json: 'add "external_id", map one with --map FIELD=external_id, or make one with ' +
      "--id-from FIELD,FIELD",
  },
  starts_at: {
    csv: "fill a starts_at column (or --map COLUMN=starts_at)",
    json: 'add "starts_at" (or --map FIELD=starts_at)',
  },
};

function hintsFor(hints: Hints, format: Format): string | undefined {
  return format === "ics" || format === "csv" ? hints[format] : hints.json;
}

/** The message with what fixes it, for a problem of `field` in a record read as `format`. */
export function withFix(field: string | undefined, message: string, format: Format): string {
  if (field === undefined) return message;
  const missing = HINTS_FOR_MISSING[field];
  if (missing && MISSING.test(message)) {
    const hint = hintsFor(missing, format);
    return hint ? `${message}: ${hint}` : message;
  }
  if ((field === "starts_at" || field === "ends_at") && message.includes("has no UTC offset")) {
    return `${message}; or pass --timezone ZONE for every record without one`;
  }
  if (message.startsWith(`${field} is not a field of an event`)) {
    const guess = closestName(field, EVENT_FIELDS);
    const where = format === "csv" ? "column" : "field";
    return `${field} is not an event field${guess ? ` (did you mean ${guess}?)` : ""}: rename ` +
      `the ${where}, map it with --map ${field}=FIELD, or drop it with --map ${field}=`;
  }
  return message;
}
