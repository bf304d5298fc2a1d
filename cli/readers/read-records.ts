/** Reads an input with the reader for its format and checks every record against the shared schema. */
import { EventInput } from "../../shared/event-schema.ts";
import { toValidationDetails } from "../../shared/validation-details.ts";
import { readCsv } from "./csv.ts";
import type { Format } from "./formats.ts";
import { readIcs } from "./ics.ts";
import { readJson, readNdjson } from "./json.ts";
import type { Reader, ReaderOptions } from "./record.ts";
import { withFix } from "./fix-hints.ts";
import { deriveExternalId, readAllDay } from "./tabular-fields.ts";

const READERS: Record<Format, Reader> = {
  ics: readIcs,
  csv: readCsv,
  json: readJson,
  ndjson: readNdjson,
};

/** A record after local validation. */
export type CheckedRecord =
  | { kind: "valid"; location: string; event: Record<string, unknown> }
  | { kind: "invalid"; location: string; messages: string[] }
  | { kind: "skipped"; location: string; message: string }
  | { kind: "warning"; location: string; message: string };

/** Fills fields the record leaves out from the command line (never overrides the record). */
function applyDefaults(event: Record<string, unknown>, options: ReaderOptions): void {
  if (options.platform !== undefined && (event.platform === undefined || event.platform === null)) {
    event.platform = options.platform;
  }
  if (
    options.sourceUrl !== undefined && (event.source_url === undefined || event.source_url === null)
  ) {
    event.source_url = options.sourceUrl;
  }
  if (options.timezone !== undefined && (event.timezone === undefined || event.timezone === null)) {
    event.timezone = options.timezone;
  }
}

function describe(path: (string | number)[], message: string, format: Format): string {
  const field = typeof path[0] === "string" ? path[0] : undefined;
  const text = path.length > 1 ? message : withFix(field, message, format);
  return path.length > 1 ? `${text} (at ${path.join(".")})` : text;
}

/** Every record of the input in order, each either valid (ready to send), invalid or skipped. */
export async function* readRecords(
  format: Format,
  chunks: AsyncIterable<string>,
  options: ReaderOptions,
): AsyncGenerator<CheckedRecord> {
  for await (const item of READERS[format](chunks, options)) {
    if (item.kind === "invalid") {
      yield { kind: "invalid", location: item.location, messages: [item.message] };
      continue;
    }
    if (item.kind === "skipped" || item.kind === "warning") {
      yield item;
      continue;
    }
    applyDefaults(item.event, options);
    if (format !== "ics") {
      const problem = (options.idFrom ? deriveExternalId(item.event, options.idFrom) : null) ??
        readAllDay(item.event);
      if (problem !== null) {
        yield { kind: "invalid", location: item.location, messages: [problem] };
        continue;
      }
    }
    const result = EventInput.safeParse(item.event);
    if (result.success) {
      yield { kind: "valid", location: item.location, event: item.event };
    } else {
      const messages = toValidationDetails(result.error.issues, { root: "event" }).map((d) =>
        describe(d.path, d.message, format)
      );
      yield { kind: "invalid", location: item.location, messages };
    }
  }
}
