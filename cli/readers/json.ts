/** The JSON and NDJSON readers. */
import { jsonElements } from "./json-elements.ts";
import { lines } from "./lines.ts";
import type { ReaderOptions, ReadItem } from "./record.ts";
import { type FieldMap, renameFields } from "./field-map.ts";

function toItem(text: string, location: string, map: FieldMap): ReadItem {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // V8's messages differ between versions; the position is what helps.
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    const where = position === undefined ? "" : ` near character ${Number(position) + 1}`;
    return {
      kind: "invalid",
      location,
      message: `not valid JSON${where}: check its quotes, commas and brackets`,
    };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { kind: "invalid", location, message: "each event must be a JSON object" };
  }
  return { kind: "event", location, event: renameFields(value as Record<string, unknown>, map) };
}

/** Reads `[...]` or `{"events": [...]}`; locations are `file:line (index i)`. */
export async function* readJson(
  chunks: AsyncIterable<string>,
  options: ReaderOptions,
): AsyncGenerator<ReadItem> {
  for await (const element of jsonElements(chunks, options.sourceName)) {
    yield toItem(
      element.text,
      `${options.sourceName}:${element.line} (index ${element.index})`,
      options.fieldMap,
    );
  }
}

/** Reads one JSON event per line; blank lines are skipped. */
export async function* readNdjson(
  chunks: AsyncIterable<string>,
  options: ReaderOptions,
): AsyncGenerator<ReadItem> {
  for await (const line of lines(chunks)) {
    if (line.text.trim() === "") continue;
    yield toItem(line.text, `${options.sourceName}:${line.number}`, options.fieldMap);
  }
}
