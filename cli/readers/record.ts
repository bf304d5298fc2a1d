import type { FieldMap } from "./field-map.ts";

/** What every reader yields: events with where they came from, and problems met on the way. */

/** Settings every reader understands; each uses the ones that apply to its format. */
export interface ReaderOptions {
  /** Name used in locations: a path, a URL, or "stdin". */
  sourceName: string;
  /** Platform for records that name none (ICS: ics_feed unless set). */
  platform?: string;
  /** source_url for records that have none (ICS: the feed's URL when read from a URL). */
  sourceUrl?: string;
  /** IANA zone for times without an offset and records that name no zone. */
  timezone?: string;
  /** ICS: recurring events are expanded from `from` for this many days. */
  horizonDays: number;
  /** ICS: start of the recurrence window. */
  from: Date;
  /** `--map`: CSV column or JSON field name to the fields it fills (none: dropped). */
  fieldMap: FieldMap;
  /** `--id-from`: the fields external_id is made from when a record has none. */
  idFrom?: string[];
  /** CSV: the delimiter; found from the header row when not given. */
  delimiter?: string;
  /** `--calendar`: the name every external_id of this feed starts with (NAME/...). */
  calendar?: string;
}

/** An event the feed cancels: one external_id, or a whole series (every id of its UID). */
export interface Cancellation {
  externalId: string;
  series: boolean;
}

/** One item of a reader's output, in file order. */
export type ReadItem =
  | { kind: "event"; location: string; event: Record<string, unknown> }
  /**
   * A record that cannot become an event (unparsable, broken); counted as invalid. `uid`: the ICS
   * UID it belongs to, whose stored events --sync must then leave alone.
   */
  | { kind: "invalid"; location: string; message: string; uid?: string }
  /** Left out on purpose (a cancelled event, a series with no occurrence in the horizon). */
  | {
    kind: "skipped";
    location: string;
    message: string;
    uid?: string;
    cancelled?: Cancellation;
  }
  /** Read past with a doubt the user should hear about; counts as nothing. */
  | { kind: "warning"; location: string; message: string };

/** A reader turns decoded text chunks into items. */
export type Reader = (
  chunks: AsyncIterable<string>,
  options: ReaderOptions,
) => AsyncGenerator<ReadItem>;
