/**
 * The worker thread's side of the parallel CSV check: it parses the blocks of rows it is sent,
 * types and checks each record with the shared schema, and answers with the checked records.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type CheckedRecord, checkItem, type CheckOptions } from "./check-record.ts";
import { csvBlockItems, type CsvLayout } from "./csv.ts";
import type { CsvBlock } from "./csv-grammar.ts";

/** What marks a worker thread as a CSV checker (workerData.role). */
export const CSV_CHECK_ROLE = "events-csv-check";

/** The settings every block of one input is checked with. */
export interface CsvCheckSetup {
  role: typeof CSV_CHECK_ROLE;
  layout: CsvLayout;
  sourceName: string;
  check: CheckOptions;
  /** Whether valid records travel back whole (push) or as their location only (validate). */
  keepEvents: boolean;
}

/** A request: one block. */
export interface CsvCheckRequest {
  id: number;
  block: CsvBlock;
}

/**
 * An answer: the block's records, and the syntax error that ended it, if any. Without keepEvents
 * valid records are only counted (`valid`), which spares copying them between threads.
 */
export interface CsvCheckAnswer {
  id: number;
  records: CheckedRecord[];
  valid: number;
  error: { message: string; line: number } | null;
}

/** Whether this thread was started as a CSV checker. */
export function isCsvCheckWorker(): boolean {
  return (workerData as CsvCheckSetup | undefined)?.role === CSV_CHECK_ROLE;
}

/** Serves blocks until the main thread terminates the worker. */
export function serveCsvChecks(): void {
  const setup = workerData as CsvCheckSetup;
  parentPort!.on("message", ({ id, block }: CsvCheckRequest) => {
    const { items, error } = csvBlockItems(block, setup.layout, setup.sourceName);
    const records: CheckedRecord[] = [];
    let valid = 0;
    for (const item of items) {
      const record = checkItem(item, "csv", setup.check);
      if (record.kind === "valid" && !setup.keepEvents) valid++;
      else records.push(record);
    }
    const answer: CsvCheckAnswer = {
      id,
      records,
      valid,
      error: error && { message: error.message, line: error.line },
    };
    parentPort!.postMessage(answer);
  });
}
