/**
 * The CSV grammar: any CSV a spreadsheet writes reads back as the rows it was made from, with the
 * line each row starts on, however the text is cut into chunks and blocks; csv-parse agrees.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parse as csvParse } from "csv-parse/sync";
import {
  type CsvBlock,
  csvBlocks,
  CsvSyntaxError,
  parseCsvBlock,
} from "../../cli/readers/csv-grammar.ts";

const cell = fc.oneof(
  fc.constantFrom("", "a", "two words", "x,y", 'say "hi"', "line\nbreak", "crlf\r\nbreak", "Köln"),
  fc.string({ maxLength: 8 }),
);
const rows = fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), {
  minLength: 1,
  maxLength: 30,
});

function quote(value: string, delimiter: string): string {
  return /["\r\n]/.test(value) || value.includes(delimiter) || value === ""
    ? `"${value.replaceAll('"', '""')}"`
    : value;
}

function write(table: string[][], delimiter: string, eol: string): string {
  return table.map((row) => row.map((v) => quote(v, delimiter)).join(delimiter)).join(eol) + eol;
}

async function readAll(text: string, delimiter: string, chunk: number, blockChars: number) {
  async function* chunks() {
    for (let i = 0; i < text.length; i += chunk) yield text.slice(i, i + chunk);
  }
  const found: { cells: string[]; line: number }[] = [];
  for await (const block of csvBlocks(chunks(), blockChars)) {
    parseCsvBlock(block, delimiter, (cells, line) => found.push({ cells, line }));
  }
  return found;
}

/** The line each row starts on, counted the way the reader counts (CRLF, LF, lone CR). */
function startLines(table: string[][], delimiter: string, eol: string): number[] {
  const lines: number[] = [];
  let line = 1;
  for (const row of table) {
    lines.push(line);
    const text = row.map((v) => quote(v, delimiter)).join(delimiter) + eol;
    line += text.replace(/\r\n/g, "\n").replace(/\r/g, "\n").split("\n").length - 1;
  }
  return lines;
}

Deno.test("written rows read back with their lines, in any chunks and blocks, as csv-parse reads them", async () => {
  await fc.assert(
    fc.asyncProperty(
      rows,
      fc.constantFrom(",", ";", "\t"),
      fc.constantFrom("\n", "\r\n", "\r"),
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: 1, max: 200 }),
      async (table, delimiter, eol, chunk, blockChars) => {
        // A row of one empty cell is an empty line, which is skipped: leave those out.
        const kept = table.filter((row) => !(row.length === 1 && row[0] === ""));
        fc.pre(kept.length > 0);
        const text = write(kept, delimiter, eol);
        const found = await readAll(text, delimiter, chunk, blockChars);
        assert.deepEqual(found.map((r) => r.cells), kept);
        assert.deepEqual(found.map((r) => r.line), startLines(kept, delimiter, eol));
        const theirs = csvParse(text, {
          delimiter,
          relax_column_count: true,
          skip_empty_lines: true,
        });
        assert.deepEqual(found.map((r) => r.cells), theirs);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("broken quoting is a syntax error at its line", () => {
  const cases: [string, RegExp, number][] = [
    ['a,b\n1,"open\n2,3\n', /never closed/, 2],
    ['a,b\n1,x"y\n', /a quote inside a cell that does not start with one/, 2],
    ['a,b\n\n1,"x"y\n', /a quote is followed by more text/, 3],
  ];
  for (const [text, message, line] of cases) {
    const block: CsvBlock = { text, firstLine: 1 };
    assert.throws(
      () => parseCsvBlock(block, ",", () => {}),
      (e) => e instanceof CsvSyntaxError && message.test(e.message) && e.line === line,
    );
  }
});

Deno.test("the header is a block of its own and a BOM is dropped", async () => {
  async function* chunks() {
    yield "\uFEFFtitle,url\r";
    yield "\nA,https://x\r\nB,https://y\r\n";
  }
  const blocks = [];
  for await (const block of csvBlocks(chunks())) blocks.push(block);
  assert.deepEqual(blocks, [
    { text: "title,url\r\n", firstLine: 1 },
    { text: "A,https://x\r\nB,https://y\r\n", firstLine: 2 },
  ]);
});
