/** Reads an input with the reader for its format and checks every record against the shared schema. */
import { readCsv } from "./csv.ts";
import type { Format } from "./formats.ts";
import { readIcs } from "./ics.ts";
import { readJson, readNdjson } from "./json.ts";
import type { Reader, ReaderOptions } from "./record.ts";
import { type CheckedRecord, checkItem } from "./check-record.ts";
import { type ParallelSettings, readCsvInParallel, useWorkers } from "./csv-parallel.ts";

export type { CheckedRecord };

const READERS: Record<Format, Reader> = {
  ics: readIcs,
  csv: readCsv,
  json: readJson,
  ndjson: readNdjson,
};

/** How a large input may be checked on worker threads. */
export interface ParallelReading {
  parallel?: ParallelSettings;
  /** The input's size in bytes, when known. */
  size?: number | null;
  /** Whether valid records must carry their events (push) or only be counted (validate). */
  keepEvents?: boolean;
}

const BATCH = 512;

/**
 * Every record of the input in order, each either valid (ready to send), invalid or a note, in
 * batches: a record at a time would cost more in promises than in reading.
 */
export async function* readRecordBatches(
  format: Format,
  chunks: AsyncIterable<string>,
  options: ReaderOptions & ParallelReading,
): AsyncGenerator<CheckedRecord[]> {
  if (format === "csv" && useWorkers(options.parallel, options.size ?? null)) {
    yield* readCsvInParallel(chunks, options, {
      parallel: options.parallel!,
      keepEvents: options.keepEvents ?? true,
    });
    return;
  }
  let batch: CheckedRecord[] = [];
  try {
    for await (const item of READERS[format](chunks, options)) {
      batch.push(checkItem(item, format, options));
      if (batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    // The records read before a reader stops (a CSV syntax error) are reported all the same.
    if (batch.length > 0) yield batch;
    throw error;
  }
  if (batch.length > 0) yield batch;
}

/** Every record of the input in order, one at a time. */
export async function* readRecords(
  format: Format,
  chunks: AsyncIterable<string>,
  options: ReaderOptions & ParallelReading,
): AsyncGenerator<CheckedRecord> {
  for await (const batch of readRecordBatches(format, chunks, options)) yield* batch;
}
