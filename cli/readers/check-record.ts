/** One read item checked against the shared schema, after the command line's defaults. */
import { EventChecks } from "../../shared/event-schema.ts";
import { toValidationDetails } from "../../shared/validation-details.ts";
import type { Format } from "./formats.ts";
import type { Cancellation, ReadItem } from "./record.ts";
import { withFix } from "./fix-hints.ts";
import { deriveExternalId, readAllDay } from "./tabular-fields.ts";

/** A record after local validation. */
export type CheckedRecord =
  | { kind: "valid"; location: string; event: Record<string, unknown> }
  /** `uid` (ICS) or `externalId` and `platform`: the stored events --sync must leave alone. */
  | {
    kind: "invalid";
    location: string;
    messages: string[];
    uid?: string;
    externalId?: string;
    platform?: string;
  }
  | {
    kind: "skipped";
    location: string;
    message: string;
    uid?: string;
    cancelled?: Cancellation;
  }
  | { kind: "warning"; location: string; message: string };

/** What the command line adds to every record (plain data: it goes to worker threads too). */
export interface CheckOptions {
  platform?: string;
  sourceUrl?: string;
  timezone?: string;
  idFrom?: string[];
  /** `--calendar`: the name every external_id of this feed starts with (NAME/...). */
  calendar?: string;
}

/** Fills fields the record leaves out from the command line (never overrides the record). */
function applyDefaults(event: Record<string, unknown>, options: CheckOptions): void {
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

/** The item as a checked record: valid (ready to send), invalid (with every problem) or a note. */
export function checkItem(item: ReadItem, format: Format, options: CheckOptions): CheckedRecord {
  if (item.kind === "invalid") {
    return { kind: "invalid", location: item.location, messages: [item.message], uid: item.uid };
  }
  if (item.kind === "skipped" || item.kind === "warning") return item;
  const event = item.event;
  applyDefaults(event, options);
  const problem = format === "ics"
    ? null
    : (options.idFrom ? deriveExternalId(event, options.idFrom) : null) ?? readAllDay(event);
  if (options.calendar !== undefined && typeof event.external_id === "string") {
    event.external_id = `${options.calendar}/${event.external_id}`;
  }
  // What an invalid record stands for, so that --sync keeps its stored event.
  const own = {
    externalId: typeof event.external_id === "string" ? event.external_id : undefined,
    platform: typeof event.platform === "string" ? event.platform : undefined,
  };
  if (problem !== null) {
    return { kind: "invalid", location: item.location, messages: [problem], ...own };
  }
  const result = EventChecks.safeParse(event);
  if (result.success) return { kind: "valid", location: item.location, event };
  const messages = toValidationDetails(result.error.issues, { root: "event" }).map((d) =>
    describe(d.path, d.message, format)
  );
  return { kind: "invalid", location: item.location, messages, ...own };
}

/** The options a check needs, from the reader's. */
export function checkOptionsOf(options: CheckOptions): CheckOptions {
  return {
    platform: options.platform,
    sourceUrl: options.sourceUrl,
    timezone: options.timezone,
    idFrom: options.idFrom,
    calendar: options.calendar,
  };
}
