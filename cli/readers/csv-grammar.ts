/**
 * CSV as RFC 4180 writes it (any one-character delimiter, CRLF, LF or CR line ends, quoted cells
 * with "" for a quote), in two steps: the stream is cut into blocks that end on a row boundary,
 * then each block is parsed on its own. Blocks can thus be parsed on other threads; line numbers
 * stay exact because each block knows the line it starts on.
 */

/** The text is not CSV; `line` is where the problem starts. */
export class CsvSyntaxError extends Error {
  constructor(message: string, readonly line: number) {
    super(message);
    this.name = "CsvSyntaxError";
  }
}

/** A run of whole rows and the line its first character is on. */
export interface CsvBlock {
  text: string;
  firstLine: number;
}

const QUOTE = 34;
const LF = 10;
const CR = 13;
// A row longer than this is a quote left open, not data: stop before holding the whole file.
const MAX_ROW_CHARS = 16 * 1024 * 1024;

/**
 * Where the first (or, with `last`, the last) row of `text` ends: just after a line break outside
 * quotes, or -1. Quotes are found with indexOf, so unquoted text is never looked at char by char.
 */
function rowEnd(text: string, last: boolean): number {
  let found = -1;
  let from = 0;
  for (;;) {
    const quote = text.indexOf('"', from);
    const regionEnd = quote < 0 ? text.length : quote;
    // A line break in [from, regionEnd) is outside quotes.
    const lf = last ? text.lastIndexOf("\n", regionEnd - 1) : text.indexOf("\n", from);
    const cr = last ? text.lastIndexOf("\r", regionEnd - 1) : text.indexOf("\r", from);
    const candidates = [lf, cr].filter((i) => i >= from && i < regionEnd);
    if (candidates.length > 0) {
      const at = last ? Math.max(...candidates) : Math.min(...candidates);
      // A CR as the text's last character may be half of a CRLF still to come.
      const end = text.charCodeAt(at) === CR
        ? (at + 1 < text.length ? (text.charCodeAt(at + 1) === LF ? at + 2 : at + 1) : -1)
        : at + 1;
      if (end > 0) {
        if (!last) return end;
        found = end;
      }
    }
    if (quote < 0) return found;
    const close = text.indexOf('"', quote + 1);
    if (close < 0) return found;
    from = close + 1;
  }
}

/** Line breaks in text[from, to): LF, CRLF and lone CR count one each. */
function countBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf("\n", from); i >= 0 && i < to; i = text.indexOf("\n", i + 1)) count++;
  for (let i = text.indexOf("\r", from); i >= 0 && i < to; i = text.indexOf("\r", i + 1)) {
    if (text.charCodeAt(i + 1) !== LF) count++;
  }
  return count;
}

/**
 * Cuts streamed text into blocks of whole rows of about `blockChars` characters. The header row is
 * a block of its own, the first. A leading BOM is dropped.
 */
export async function* csvBlocks(
  chunks: AsyncIterable<string>,
  blockChars = 256 * 1024,
): AsyncGenerator<CsvBlock> {
  let buffer = "";
  let line = 1;
  let headerDone = false;
  let first = true;
  const cut = (end: number): CsvBlock => {
    const block = { text: buffer.slice(0, end), firstLine: line };
    line += countBreaks(buffer, 0, end);
    buffer = buffer.slice(end);
    return block;
  };
  for await (const chunk of chunks) {
    buffer += first && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk;
    if (chunk !== "") first = false;
    if (!headerDone) {
      const end = rowEnd(buffer, false);
      if (end < 0) continue;
      headerDone = true;
      yield cut(end);
    }
    if (buffer.length < blockChars) continue;
    const end = rowEnd(buffer, true);
    if (end > 0) yield cut(end);
    else if (buffer.length > MAX_ROW_CHARS) {
      throw new CsvSyntaxError("a row is longer than 16 MB: is a quoted cell left open?", line);
    }
  }
  if (buffer !== "") yield { text: buffer, firstLine: line };
}

/** A quoted cell starting at `start` (its opening quote): the value and where it ends. */
function quotedCell(
  text: string,
  start: number,
  line: number,
): { value: string; end: number; breaks: number } {
  let value = "";
  let from = start + 1;
  let breaks = 0;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) throw new CsvSyntaxError("a quoted cell is never closed", line);
    breaks += countBreaks(text, from, quote);
    if (text.charCodeAt(quote + 1) === QUOTE) {
      value += text.slice(from, quote + 1);
      from = quote + 2;
      continue;
    }
    return { value: value + text.slice(from, quote), end: quote + 1, breaks };
  }
}

/**
 * Calls `onRow` with the cells and starting line of each row of `block`; empty lines are skipped.
 * Throws CsvSyntaxError for a quote in an unquoted cell, text after a closing quote, or a quoted
 * cell never closed.
 */
export function parseCsvBlock(
  block: CsvBlock,
  delimiter: string,
  onRow: (cells: string[], line: number) => void,
): void {
  const text = block.text;
  const n = text.length;
  const delim = delimiter.charCodeAt(0);
  let line = block.firstLine;
  let i = 0;
  while (i < n) {
    const first = text.charCodeAt(i);
    if (first === LF || first === CR) {
      i += first === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      line++;
      continue;
    }
    const rowLine = line;
    const cells: string[] = [];
    for (;;) {
      if (text.charCodeAt(i) === QUOTE) {
        const cell = quotedCell(text, i, line);
        cells.push(cell.value);
        line += cell.breaks;
        i = cell.end;
        const c = text.charCodeAt(i);
        if (c === delim) {
          i++;
          continue;
        }
        if (i < n && c !== LF && c !== CR) {
          throw new CsvSyntaxError("a quote is followed by more text in the same cell", line);
        }
        break;
      }
      let j = i;
      for (; j < n; j++) {
        const c = text.charCodeAt(j);
        if (c === delim || c === LF || c === CR) break;
        if (c === QUOTE) {
          throw new CsvSyntaxError("a quote inside a cell that does not start with one", line);
        }
      }
      cells.push(text.slice(i, j));
      i = j;
      if (i < n && text.charCodeAt(i) === delim) {
        i++;
        continue;
      }
      break;
    }
    if (i < n) {
      i += text.charCodeAt(i) === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      line++;
    }
    onRow(cells, rowLine);
  }
}
