/** The CSV reader: a header row of field names, one event per row, streamed through csv-parse. */
import { Readable } from "node:stream";
import { parse } from "csv-parse";
import { InputError } from "../errors.ts";
import { cellValue, columnFields } from "./csv-columns.ts";
import type { ReaderOptions, ReadItem } from "./record.ts";

interface ParsedRow {
  record: string[];
  info: { lines: number };
}

/** Line breaks inside a row's cells, and how many CRLFs among them csv-parse counts twice. */
function lineBreaks(cells: string[]): { breaks: number; crlf: number } {
  let breaks = 0;
  let crlf = 0;
  for (const cell of cells) {
    for (let i = 0; i < cell.length; i++) {
      const c = cell.charCodeAt(i);
      if (c === 10) breaks++;
      else if (c === 13) {
        if (cell.charCodeAt(i + 1) === 10) crlf++;
        else breaks++;
      }
    }
  }
  return { breaks, crlf };
}

/** Reads CSV text into events; quoted cells may span lines, CRLF and a BOM are fine. */
export async function* readCsv(
  chunks: AsyncIterable<string>,
  options: ReaderOptions,
): AsyncGenerator<ReadItem> {
  const parser = Readable.from(chunks).pipe(parse({
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
  }));
  let fields: (string | null)[] | null = null;
  // csv-parse's line count counts a CRLF inside a quoted cell as two lines.
  let overCount = 0;
  try {
    for await (const row of parser as AsyncIterable<ParsedRow>) {
      const cells = row.record;
      // Report the line a row starts on, also when a quoted cell spans several.
      const inside = lineBreaks(cells);
      overCount += inside.crlf;
      const location = `${options.sourceName}:${row.info.lines - overCount - inside.breaks}`;
      if (fields === null) {
        fields = columnFields(cells, options.columnMap);
        continue;
      }
      if (cells.length !== fields.length) {
        yield {
          kind: "invalid",
          location,
          message: `row has ${cells.length} cells but the header has ${fields.length}`,
        };
        continue;
      }
      const event: Record<string, unknown> = {};
      for (let i = 0; i < cells.length; i++) {
        const field = fields[i];
        if (field === null) continue;
        const value = cellValue(field, cells[i]);
        if (value !== undefined) event[field] = value;
      }
      yield { kind: "event", location, event };
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`Cannot read ${options.sourceName} as CSV: ${(error as Error).message}`);
  }
  if (fields === null) {
    throw new InputError(`Cannot read ${options.sourceName} as CSV: it has no header row`);
  }
}
