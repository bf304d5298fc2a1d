/**
 * What a route answers when its declared request schemas refuse a request: the spec's 400, with
 * each problem's path starting at the part it is in (["query", "limit"], ["path", "id"]; body
 * paths start at the body's root, such as ["events", 3, "title"]).
 */
import type { Context } from "hono";
import type { z } from "zod";
import { toValidationDetails, type ValidatedRoot } from "../../shared/validation-details.ts";
import { validationError } from "../errors.ts";

/** Where a validation target's problems are, as a path's first element (none for the body). */
const PARTS: Record<string, { prefix: string[]; root: ValidatedRoot }> = {
  query: { prefix: ["query"], root: "query string" },
  param: { prefix: ["path"], root: "path" },
  json: { prefix: [], root: "request body" },
};

/** Query parameters given more than once (Hono passes them to the schema as arrays). */
function repeatedParameters(c: Context): Set<string> {
  const repeated = Object.entries(c.req.queries()).filter(([, values]) => values.length > 1);
  return new Set(repeated.map(([name]) => name));
}

/** The defaultHook of the API: throws the 400 of a failed validation, lets others through. */
export function validationHook(
  result: { target: string; success: boolean; error?: z.ZodError },
  c: Context,
): void {
  if (result.success || !result.error) return;
  const part = PARTS[result.target] ?? PARTS.json;
  const repeated = result.target === "query" ? repeatedParameters(c) : new Set<string>();
  const seen = new Set<string>();
  const details = toValidationDetails(result.error.issues, { root: part.root }).flatMap(
    (detail) => {
      const name = String(detail.path[0]);
      const message = repeated.has(name)
        ? `${name} is given more than once: give it once`
        : detail.message;
      const path = [...part.prefix, ...detail.path];
      const key = JSON.stringify([path, message]);
      if (seen.has(key)) return [];
      seen.add(key);
      return [{ path, message }];
    },
  );
  throw validationError(details);
}
