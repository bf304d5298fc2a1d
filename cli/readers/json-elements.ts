/**
 * Finds the items of a JSON array of events, or of the `events` array of `{"events": [...]}`,
 * while the text streams in: only the item being read is held, so a large file is never parsed
 * as one value.
 */
import { InputError } from "../errors.ts";

/** One item's source text, its 0-based index and the line it starts on. */
export interface JsonElement {
  text: string;
  index: number;
  line: number;
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

/** Yields each item; a problem with the document as a whole throws InputError. */
export async function* jsonElements(
  chunks: AsyncIterable<string>,
  sourceName: string,
): AsyncGenerator<JsonElement> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let line = 1;
  let root: "array" | "object" | null = null;
  // Depth at which the items sit: 1 for a bare array, 2 inside {"events": [...]}.
  let itemDepth = -1;
  let key = "";
  let readingKey = false;
  let expectingKey = false;
  let pendingKey: string | null = null;
  let itemStart = -1;
  let itemLine = 0;
  let index = 0;
  let closed = false;
  let buffer = "";

  const fail = (message: string): never => {
    throw new InputError(`Cannot read ${sourceName} as JSON: ${message} (line ${line})`);
  };

  for await (const chunk of chunks) {
    buffer += chunk;
    let i = buffer.length - chunk.length;
    for (; i < buffer.length; i++) {
      const c = buffer[i];
      if (c === "\n") line++;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === "\\") escaped = true;
        else if (c === '"') {
          inString = false;
          if (readingKey) readingKey = false;
        } else if (readingKey) key += c;
        continue;
      }
      if (WHITESPACE.has(c)) continue;
      if (root === null) {
        if (c === "[") [root, itemDepth] = ["array", 1];
        else if (c === "{") [root, expectingKey] = ["object", true];
        else fail('the file must hold an array of events or an object {"events": [...]}');
      } else if (closed) {
        fail("unexpected text after the events");
      }
      const atItemLevel = depth === itemDepth;
      if (atItemLevel && itemStart < 0 && c !== "]" && c !== ",") {
        itemStart = i;
        itemLine = line;
      }
      if (atItemLevel && (c === "," || c === "]") && itemStart >= 0) {
        yield { text: buffer.slice(itemStart, i), index: index++, line: itemLine };
        itemStart = -1;
      }
      if (c === '"') {
        inString = true;
        if (root === "object" && depth === 1 && expectingKey) {
          readingKey = true;
          key = "";
        }
        continue;
      }
      if (root === "object" && depth === 1) {
        if (c === ":") {
          pendingKey = key;
          expectingKey = false;
        } else if (c === ",") expectingKey = true;
      }
      if (c === "[" || c === "{") {
        depth++;
        if (root === "object" && depth === 2 && pendingKey === "events" && c === "[") itemDepth = 2;
        pendingKey = depth === 2 ? null : pendingKey;
      } else if (c === "]" || c === "}") {
        depth--;
        if (depth < 0) fail(`unbalanced ${c}`);
        if (depth === 0) closed = true;
      }
    }
    // Keep only the item being read; everything before it has been handled.
    if (itemStart >= 0) {
      buffer = buffer.slice(itemStart);
      itemStart = 0;
    } else {
      buffer = "";
    }
  }
  if (root === null) fail("the file is empty");
  if (!closed) fail("the file ends before the events array is closed");
  if (itemDepth < 0) fail('the object has no "events" array');
}
