/** The CSV reader: a header row of field names, one event per row, streamed through csv-parse. */
import { parse } from "csv-parse";
import { InputError } from "../errors.ts";
import { cellValue, columnFields } from "./csv-columns.ts";
import type { ReaderOptions, ReadItem } from "./record.ts";

/** A parsed row and the line it ends on. */
interface Row {
  cells: string[];
  lastLine: number;
}

/** Line breaks inside a row's cells, and how many CRLFs among them csv-parse counts twice. */
function lineBreaks(cells: string[]): { breaks: number; crlf: number } {
  let breaks = 0;
  let crlf = 0;
  for (const cell of cells) {
    // Most cells hold no line break: skip the character loop for them.
    if (cell.indexOf("\n") === -1 && cell.indexOf("\r") === -1) continue;
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

/**
 * A csv-parse parser that collects rows, each with the line it ends on, as chunks are written.
 * csv-parse hands a record to push() the moment it ends, while its public `info.lines` still names
 * that line: reading it there gives what `info: true` gives, without the two objects per record
 * that option builds (they cost about a third of its speed).
 */
function rowParser(delimiter: string) {
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    delimiter,
  });
  let rows: Row[] = [];
  const push = parser.push.bind(parser);
  parser.push = (record: string[] | null) => {
    if (record === null) return push(null);
    rows.push({ cells: record, lastLine: parser.info.lines });
    return true;
  };
  // Failures are read from `parser.errored` right after each write; this only stops Node from
  // treating the 'error' event as unhandled.
  parser.on("error", () => {});
  parser.resume();
  const check = () => {
    if (parser.errored) throw parser.errored;
  };
  return {
    /** Parses one chunk; the rows it completed. */
    write(text: string): Row[] {
      parser.write(text);
      check();
      const done = rows;
      rows = [];
      return done;
    },
    /** Ends the input; the last rows. */
    async end(): Promise<Row[]> {
      await new Promise<void>((resolve, reject) => {
        parser.once("finish", resolve);
        parser.once("error", reject);
        parser.end();
      });
      check();
      return rows;
    },
  };
}

/** csv-parse's failure in plain words, with the line it met it on. */
function csvProblem(error: unknown, overCount: number): string {
  const e = error as { code?: string; lines?: number };
  const at = typeof e.lines === "number" ? ` (line ${e.lines})` : "";
  switch (e.code) {
    case "CSV_QUOTE_NOT_CLOSED": {
      // csv-parse counts a CRLF inside a quoted cell as two lines; the rows read so far say how
      // many such CRLFs came before.
      const opened = /opening quote at line (\d+)/.exec(String((error as Error).message))?.[1];
      const line = opened === undefined ? null : Number(opened) - overCount;
      return `a quoted cell is never closed${line ? ` (it opens on line ${line})` : at}: ` +
        'close it with a double quote, and write a quote inside a quoted cell as ""';
    }
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return `a quote is followed by more text in the same cell${at}: quote the whole cell and ` +
        'write a quote inside it as ""';
    case "CSV_MAX_RECORD_SIZE":
      return `a row is too long${at}: is a quote left open?`;
    default:
      return `the text is not CSV that can be read${at}`;
  }
}

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

/** The chunks, with the text before the first line break read ahead (at most 64 KiB). */
async function withHeaderLine(
  chunks: AsyncIterable<string>,
): Promise<{ header: string; chunks: AsyncIterable<string> }> {
  const iterator = chunks[Symbol.asyncIterator]();
  let head = "";
  let done = false;
  while (!/[\r\n]/.test(head) && head.length < 65_536) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    head += next.value;
  }
  return {
    header: head.replace(/^\uFEFF/, "").split(/[\r\n]/, 1)[0],
    chunks: (async function* () {
      if (head !== "") yield head;
      if (done) return;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        yield next.value;
      }
    })(),
  };
}

/** Reads CSV text into events; quoted cells may span lines, CRLF and a BOM are fine. */
export async function* readCsv(
  chunks: AsyncIterable<string>,
  options: ReaderOptions,
): AsyncGenerator<ReadItem> {
  let fields: string[][] | null = null;
  // csv-parse's line count counts a CRLF inside a quoted cell as two lines.
  let overCount = 0;
  function* items(rows: Row[]): Generator<ReadItem> {
    for (const row of rows) {
      const cells = row.cells;
      // Report the line a row starts on, also when a quoted cell spans several.
      const inside = lineBreaks(cells);
      overCount += inside.crlf;
      const location = `${options.sourceName}:${row.lastLine - overCount - inside.breaks}`;
      if (fields === null) {
        fields = columnFields(cells, options.fieldMap);
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
        for (const field of fields[i]) {
          const value = cellValue(field, cells[i]);
          if (value !== undefined) event[field] = value;
        }
      }
      yield { kind: "event", location, event };
    }
  }
  const input = await withHeaderLine(chunks);
  const parser = rowParser(options.delimiter ?? detectDelimiter(input.header));
  try {
    for await (const chunk of input.chunks) yield* items(parser.write(chunk));
    yield* items(await parser.end());
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(
      `Cannot read ${options.sourceName} as CSV: ${csvProblem(error, overCount)}`,
    );
  }
  if (fields === null) {
    throw new InputError(`Cannot read ${options.sourceName} as CSV: it has no header row`);
  }
}
