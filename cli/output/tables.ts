/** Tables for people: cli-table3 with colours only when stdout is a terminal. */
import Table from "cli-table3";

/** Renders rows under a header; plain (no ANSI colour codes) unless `colour`. */
export function renderTable(head: string[], rows: (string | number)[][], colour: boolean): string {
  const table = new Table({
    head,
    style: colour ? {} : { head: [], border: [] },
    wordWrap: true,
  });
  for (const row of rows) table.push(row.map(String));
  return table.toString();
}

/** Renders label/value pairs. */
export function renderPairs(pairs: [string, string | number][], colour: boolean): string {
  const table = new Table({ style: colour ? {} : { head: [], border: [] } });
  for (const [label, value] of pairs) table.push({ [label]: String(value) });
  return table.toString();
}

/** Shortens text for a table cell. */
export function cell(value: unknown, max = 60): string {
  if (value === null || value === undefined) return "";
  const text = String(value).replace(/\s+/g, " ");
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
