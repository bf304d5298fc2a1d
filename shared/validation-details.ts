/** Turns zod issues into the spec's `details` entries: one `{path, message}` per problem. */
import type { z } from "zod";

/** One entry of a 400 response's `details`. */
export interface ValidationDetail {
  path: (string | number)[];
  message: string;
}

/** What the validated value is, for messages about its top level. */
export type ValidatedRoot = "request body" | "query string" | "path" | "event";

export interface ValidationDetailsOptions {
  /** What the path is relative to; "request body" when not given. */
  root?: ValidatedRoot;
}

type Issue = z.core.$ZodIssue;
type Path = (string | number)[];

/**
 * Every problem of every item, unknown fields listed one by one under their own path. Messages
 * the schemas wrote are kept; zod's generic English ("Invalid input: expected string, received
 * undefined") is replaced by a sentence that names the field and says how to fix it.
 */
export function toValidationDetails(
  issues: readonly Issue[],
  options: ValidationDetailsOptions = {},
): ValidationDetail[] {
  const root = options.root ?? "request body";
  const details: ValidationDetail[] = [];
  for (const issue of issues) {
    const path = issue.path.map((p) => (typeof p === "symbol" ? String(p) : p));
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        details.push({ path: [...path, key], message: unknownKeyMessage(key, path, root) });
      }
    } else {
      const message = isZodDefaultMessage(issue.message)
        ? plainMessage(issue, fieldName(path, root))
        : issue.message;
      details.push({ path, message });
    }
  }
  return details;
}

function unknownKeyMessage(key: string, path: Path, root: ValidatedRoot): string {
  if (path.length === 0 && root === "query string") {
    return `${key} is not a query parameter of this endpoint: remove it or check its spelling`;
  }
  const inEvent = (path.length === 0 && root === "event") ||
    (path.length === 2 && path[0] === "events" && typeof path[1] === "number" &&
      root === "request body");
  const owner = inEvent ? "an event" : path.length === 0 ? `the ${root}` : fieldName(path, root);
  const hint = inEvent ? " (server-owned fields such as id cannot be written)" : "";
  return `${key} is not a field of ${owner}: remove it or check its spelling${hint}`;
}

/** The field a path points at as a reader would name it: `title`, `scopes[2]`. */
function fieldName(path: Path, root: ValidatedRoot): string {
  if (path.length === 0) return `the ${root}`;
  let start = path.length - 1;
  while (start > 0 && typeof path[start] === "number") start--;
  return path.slice(start).map((p, i) => (typeof p === "number" ? `[${p}]` : i ? `.${p}` : p))
    .join("");
}

// The openings of zod 4's English messages; the schemas' own messages start with a field name.
const ZOD_DEFAULT =
  /^(Invalid (input|option|string|number|key|value|discriminator)|Too (big|small)|Unrecognized key|Invalid [a-zA-Z0-9 -]+$)/;

function isZodDefaultMessage(message: string): boolean {
  return ZOD_DEFAULT.test(message);
}

/** A plain sentence for an issue whose schema gave no message of its own. */
function plainMessage(issue: Issue, field: string): string {
  switch (issue.code) {
    case "invalid_type": {
      const received = /received (.+)$/.exec(issue.message)?.[1];
      if (received === "undefined") return `${field} is required`;
      if (issue.expected === "int") return `${field} must be a whole number`;
      if (received === "Infinity" || received === "-Infinity") {
        return `${field} is too large to store: send a number between -1e308 and 1e308`;
      }
      const got = received === undefined
        ? ""
        : `, not ${received === "null" || received === "NaN" ? received : article(received)}`;
      return `${field} must be ${article(issue.expected)}${got}`;
    }
    case "invalid_value":
      return `${field} must be ${issue.values.length === 1 ? "" : "one of "}${
        issue.values.map((v) => JSON.stringify(v)).join(", ")
      }`;
    case "too_small":
      if (issue.origin === "string" && Number(issue.minimum) === 1) {
        return `${field} must not be empty`;
      }
      return `${field} must ${sizeRule(issue.origin, "at least", issue.minimum)}`;
    case "too_big":
      return `${field} must ${sizeRule(issue.origin, "at most", issue.maximum)}`;
    case "not_multiple_of":
      return `${field} must be a multiple of ${issue.divisor}`;
    case "invalid_format":
      return `${field} is not in the expected format (${issue.format})`;
    default:
      return `${field} is not valid: check its type and value against the API documentation`;
  }
}

function article(type: string): string {
  if (type === "int") return "a whole number";
  if (type === "array" || type === "object") return `an ${type}`;
  if (type === "boolean") return "true or false";
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function sizeRule(origin: string, bound: string, limit: number | bigint): string {
  const one = Number(limit) === 1;
  const unit = origin === "string"
    ? (one ? " character" : " characters")
    : origin === "array" || origin === "set"
    ? (one ? " item" : " items")
    : "";
  return unit ? `have ${bound} ${limit}${unit}` : `be ${bound} ${limit}`;
}
