/**
 * First pass over an iCalendar stream: unfolds lines and cuts the text into the calendar's own
 * properties, its VTIMEZONEs and its VEVENTs, each VEVENT with the line it starts on. Only these
 * texts are kept, so a large file is held once, as text, never as text plus a parsed tree.
 */
import type { Line } from "./lines.ts";

/** One top-level component's text, unfolded, lines joined by CRLF. */
export interface IcsBlock {
  text: string;
  line: number;
  /** The component's own UID (not one of a nested VALARM), when it has one. */
  uid?: string;
}

/** What the first pass found. */
export interface IcsBlocks {
  calendarProperties: Map<string, string>;
  timezones: IcsBlock[];
  events: IcsBlock[];
  /** Blocks that are not well formed (BEGIN without END), with a reason. */
  broken: { line: number; message: string }[];
  /** Components other than VEVENT and VTIMEZONE (VTODO, VJOURNAL, ...), by name. */
  otherComponents: Map<string, number>;
}

/** Logical lines: a physical line starting with a space or tab continues the previous one. */
async function* unfold(source: AsyncIterable<Line>): AsyncGenerator<Line> {
  let current: Line | null = null;
  for await (const line of source) {
    const first = line.text.charCodeAt(0);
    if (current !== null && (first === 32 || first === 9)) {
      current.text += line.text.slice(1);
      continue;
    }
    if (current !== null) yield current;
    current = { text: line.text, number: line.number };
  }
  if (current !== null) yield current;
}

function componentName(text: string, keyword: "BEGIN" | "END"): string | null {
  if (text.length <= keyword.length || text[keyword.length] !== ":") return null;
  if (text.slice(0, keyword.length).toUpperCase() !== keyword) return null;
  return text.slice(keyword.length + 1).trim().toUpperCase();
}

/** Reads the whole stream into blocks. */
export async function readIcsBlocks(source: AsyncIterable<Line>): Promise<IcsBlocks> {
  const result: IcsBlocks = {
    calendarProperties: new Map(),
    timezones: [],
    events: [],
    broken: [],
    otherComponents: new Map(),
  };
  // The stack of open components below VCALENDAR; the block being collected is its first entry.
  const stack: string[] = [];
  let parts: string[] = [];
  let blockLine = 0;
  let uid: string | undefined;
  let sawCalendar = false;
  for await (const line of unfold(source)) {
    const text = line.text;
    if (text.trim() === "") continue;
    const begin = componentName(text, "BEGIN");
    if (begin === "VCALENDAR") {
      sawCalendar = true;
      if (stack.length > 0) {
        result.broken.push({ line: blockLine, message: `BEGIN:${stack[0]} has no END` });
        stack.length = 0;
      }
      continue;
    }
    const end = componentName(text, "END");
    if (end === "VCALENDAR") {
      if (stack.length > 0) {
        result.broken.push({ line: blockLine, message: `BEGIN:${stack[0]} has no END` });
        stack.length = 0;
      }
      continue;
    }
    if (begin !== null) {
      if (stack.length === 0) {
        parts = [];
        blockLine = line.number;
        uid = undefined;
      }
      stack.push(begin);
    }
    if (stack.length === 0) {
      // A property of the calendar itself (METHOD, X-WR-TIMEZONE, ...).
      const colon = text.indexOf(":");
      if (colon > 0) {
        const name = text.slice(0, text.search(/[;:]/)).toUpperCase();
        if (!result.calendarProperties.has(name)) {
          result.calendarProperties.set(name, text.slice(colon + 1));
        }
      }
      continue;
    }
    parts.push(text);
    if (stack.length === 1 && uid === undefined && /^UID[;:]/i.test(text)) {
      uid = text.slice(text.indexOf(":") + 1).trim();
    }
    if (end !== null) {
      if (stack[stack.length - 1] !== end) {
        result.broken.push({
          line: blockLine,
          message: `END:${end} closes BEGIN:${stack[stack.length - 1]} (line ${line.number})`,
        });
        stack.length = 0;
        continue;
      }
      stack.pop();
      if (stack.length === 0) {
        const block = { text: parts.join("\r\n"), line: blockLine, uid };
        if (end === "VEVENT") result.events.push(block);
        else if (end === "VTIMEZONE") result.timezones.push(block);
        else result.otherComponents.set(end, (result.otherComponents.get(end) ?? 0) + 1);
      }
    }
  }
  if (stack.length > 0) {
    result.broken.push({ line: blockLine, message: `BEGIN:${stack[0]} has no END` });
  }
  if (!sawCalendar && result.events.length === 0 && result.broken.length === 0) {
    result.broken.push({ line: 1, message: "not an iCalendar file: no BEGIN:VCALENDAR" });
  }
  return result;
}
