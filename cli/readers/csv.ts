/** The CSV reader: a header row of field names, one event per row, read block by block. */
import { InputError } from "../errors.ts";
import { cellValue, columnFields } from "./csv-columns.ts";
import { type CsvBlock, csvBlocks, CsvSyntaxError, parseCsvBlock } from "./csv-grammar.ts";
import type { ReaderOptions, ReadItem } from "./record.ts";

const CANDIDATES = [",", ";", "\t"];

/**
 * The delimiter the header row uses: the most frequent of comma, semicolon and tab outside quotes
 * (European spreadsheets export with semicolons); a comma when the header has none of them.
 */
export function detectDelimiter(headerLine: string): string {
  const counts = new Map(CANDIDATES.map((c) => [c, 0]));
  let quoted = false;
  for (const c of headerLine) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  let best = ",";
  for (const c of CANDIDATES) if (counts.get(c)! > counts.get(best)!) best = c;
  return best;
}

/** A CSV syntax error as the InputError that stops the run. */
export function csvInputError(error: unknown, sourceName: string): unknown {
  if (!(error instanceof CsvSyntaxError)) return error;
  const fix = /never closed|longer than/.test(error.message)
    ? 'close it with a double quote, and write a quote inside a quoted cell as ""'
    : 'quote the whole cell and write a quote inside it as ""';
  const where = /never closed/.test(error.message)
    ? `it opens on line ${error.line}`
    : `line ${error.line}`;
  return new InputError(`Cannot read ${sourceName} as CSV: ${error.message} (${where}): ${fix}`);
}

/** How the rows of a file become events: its delimiter and the fields of each column. */
export interface CsvLayout {
  delimiter: string;
  fields: string[][];
}

/** The layout the header block gives (an unknown column stops the run here). */
export function csvLayout(header: CsvBlock, options: ReaderOptions): CsvLayout {
  const delimiter = options.delimiter ?? detectDelimiter(header.text.split(/[\r\n]/, 1)[0]);
  let cells: string[] | null = null;
  parseCsvBlock(header, delimiter, (row) => (cells ??= row));
  if (cells === null) {
    throw new InputError(`Cannot read ${options.sourceName} as CSV: it has no header row`);
  }
  return { delimiter, fields: columnFields(cells, options.fieldMap) };
}

/**
 * The items of one block of rows, in order, and the syntax error that ended it early, if any (the
 * rows before it are read all the same).
 */
export function csvBlockItems(
  block: CsvBlock,
  layout: CsvLayout,
  sourceName: string,
): { items: ReadItem[]; error: CsvSyntaxError | null } {
  const items: ReadItem[] = [];
  const { fields } = layout;
  const onRow = (cells: string[], line: number) => {
    const location = `${sourceName}:${line}`;
    if (cells.length !== fields.length) {
      items.push({
        kind: "invalid",
        location,
        message: `row has ${cells.length} cells but the header has ${fields.length}: quote ` +
          `cells that hold the delimiter (${
            layout.delimiter === "\t" ? "tab" : layout.delimiter
          }), or check --delimiter`,
      });
      return;
    }
    const event: Record<string, unknown> = {};
    for (let i = 0; i < cells.length; i++) {
      for (const field of fields[i]) {
        const value = cellValue(field, cells[i]);
        if (value !== undefined) event[field] = value;
      }
    }
    items.push({ kind: "event", location, event });
  };
  try {
    parseCsvBlock(block, layout.delimiter, onRow);
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { items, error };
    throw error;
  }
  return { items, error: null };
}

/** Reads CSV text into events; quoted cells may span lines, CRLF and a BOM are fine. */
export async function* readCsv(
  chunks: AsyncIterable<string>,
  options: ReaderOptions,
): AsyncGenerator<ReadItem> {
  let layout: CsvLayout | null = null;
  try {
    for await (const block of csvBlocks(chunks)) {
      if (layout === null) layout = csvLayout(block, options);
      else {
        const { items, error } = csvBlockItems(block, layout, options.sourceName);
        yield* items;
        if (error) throw error;
      }
    }
  } catch (error) {
    throw csvInputError(error, options.sourceName);
  }
  if (layout === null) {
    throw new InputError(`Cannot read ${options.sourceName} as CSV: it has no header row`);
  }
}
