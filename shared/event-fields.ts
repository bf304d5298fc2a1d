/**
 * The field schemas an event is made of: trimmed texts, URLs, numbers, booleans and label lists,
 * each with the messages that say how to fix a value. Every rule of a field is one check, since
 * zod runs each check, refinement and transform for every field of every event a large feed holds.
 */
import { z } from "zod";
import { isHttpUrl } from "./http-url.ts";
import { loneSurrogateMessage, nulMessage, unstorableText } from "./storable-text.ts";

export const MAX_URL_LENGTH = 2048;
export const MAX_ARRAY_ITEM_LENGTH = 100;
const MAX_INT4 = 2_147_483_647;

/** What a JSON value is, in words: "null", "an array", "a string". */
export function typeName(input: unknown): string {
  if (input === null) return "null";
  if (typeof input === "number" && Number.isNaN(input)) return "NaN";
  if (Array.isArray(input)) return "an array";
  return typeof input === "object" ? "an object" : `a ${typeof input}`;
}

/** A message for a missing field or a value of the wrong JSON type. */
export function typeError(field: string, expected: string) {
  return (issue: { input?: unknown }) => {
    if (issue.input === undefined) return `${field} is required`;
    // JSON.parse turns a literal too large for a double (1e400) into Infinity.
    if (issue.input === Infinity || issue.input === -Infinity) {
      return `${field} is too large to store: send a number between -1e308 and 1e308`;
    }
    return `${field} must be ${expected}, not ${typeName(issue.input)}`;
  };
}

/** What a text field adds to the rules every text field has. */
export interface TextRules {
  /** Blank (after trimming) is an error rather than "not given". */
  required?: boolean;
  /** The field's own rule for a non-blank value: why it is wrong, or null. */
  rule?: (value: string) => string | null;
}

/**
 * A trimmed string with every rule of its field in one check: each check and each refinement is
 * a step zod runs for every field of every event, and a large CLI feed checks millions of fields.
 * Rules run in a fixed order, and a later one only when the earlier found nothing, so each value
 * gets the messages that say what to fix first.
 */
export function text(field: string, max: number, rules: TextRules = {}) {
  const { required = false, rule } = rules;
  // trim() rewrites the value in place: a transform would allocate a pipe's worth per field.
  return z.string({ error: typeError(field, "a string") })
    .trim()
    .check((ctx) => {
      const s = ctx.value;
      const found = ctx.issues.length;
      const unstorable = unstorableText(s);
      if (unstorable !== null) {
        ctx.issues.push({
          code: "custom",
          input: s,
          message: unstorable === "nul" ? nulMessage(field) : loneSurrogateMessage(field),
        });
      }
      // Limits count characters (code points), not UTF-16 units: an emoji is one character.
      const length = s.length > max ? [...s].length : s.length;
      if (length > max) {
        ctx.issues.push({
          code: "custom",
          input: s,
          message: `${field} is ${length} characters long; the limit is ${max}`,
        });
      }
      if (ctx.issues.length !== found) return;
      const message = s === ""
        ? (required ? `${field} must not be empty` : null)
        : rule === undefined
        ? null
        : rule(s);
      if (message !== null) ctx.issues.push({ code: "custom", input: s, message });
    })
    // The checks above are code, invisible to the OpenAPI document: state the limit there too.
    .meta({ maxLength: max });
}

/** An absolute http(s) URL with a host (see isHttpUrl). */
export function url(field: string, rules: { required?: boolean } = {}) {
  const message = `${field} must be an absolute http:// or https:// URL`;
  return text(field, MAX_URL_LENGTH, {
    ...rules,
    rule: (s) => (isHttpUrl(s) ? null : message),
  }).meta({
    // No `format: uri`: the server takes what WHATWG URL parsing takes (spaces, Unicode), which
    // that format forbids; the pattern and the description state the real rule.
    pattern: "^[hH][tT][tT][pP][sS]?://",
    description: "An absolute http:// or https:// URL with a host.",
  });
}

/** A finite number, optionally within a range and whole. */
export function number(
  field: string,
  range: { min?: number; max?: number; integer?: boolean } = {},
) {
  const { min, max, integer = false } = range;
  const schema = z.number({ error: typeError(field, "a number") }).check((ctx) => {
    const n = ctx.value;
    if (!Number.isFinite(n)) {
      ctx.issues.push({ code: "custom", input: n, message: `${field} must be a finite number` });
    } else if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
      const range = max === undefined ? `at least ${min}` : `between ${min} and ${max}`;
      ctx.issues.push({ code: "custom", input: n, message: `${field} must be ${range}, got ${n}` });
    } else if (integer && !Number.isInteger(n)) {
      ctx.issues.push({ code: "custom", input: n, message: `${field} must be a whole number` });
    }
  }).meta({ minimum: min, maximum: max });
  return integer ? schema.meta({ type: "integer" }) : schema;
}

/** A whole number from 0 to the largest PostgreSQL integer. */
export function count(field: string) {
  return number(field, { min: 0, max: MAX_INT4, integer: true });
}

/** true or false. */
export function bool(field: string) {
  return z.boolean({ error: typeError(field, "true or false") });
}

/** A list of short labels; blank items are errors (repeats are dropped by the event's transform). */
export function labels(field: string, maxItems: number) {
  return z.array(text(`each ${field} item`, MAX_ARRAY_ITEM_LENGTH, { required: true }), {
    error: typeError(field, "an array of strings"),
  })
    .max(maxItems, { message: `${field} may have at most ${maxItems} items` });
}

/** The labels without case-insensitive repeats, first spelling kept. */
export function withoutRepeats(items: string[] | null | undefined): string[] {
  if (!items) return [];
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** An optional field's value: omitted, null and (for strings) blank all mean "not given". */
export function given<T>(value: T | null | undefined): Exclude<T, ""> | null {
  return value === undefined || value === null || value === "" ? null : value as Exclude<T, "">;
}
