/** Turns zod issues into the spec's `details` entries: one `{path, message}` per problem. */
import type { z } from "zod";

/** One entry of a 400 response's `details`. */
export interface ValidationDetail {
  path: (string | number)[];
  message: string;
}

/** Every problem of every item, unknown fields listed one by one under their own path. */
export function toValidationDetails(issues: readonly z.core.$ZodIssue[]): ValidationDetail[] {
  const details: ValidationDetail[] = [];
  for (const issue of issues) {
    const path = issue.path.map((p) => (typeof p === "symbol" ? String(p) : p));
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        details.push({
          path: [...path, key],
          message: `${key} is not a field of ${
            path.length === 0 ? "the request body" : "an event"
          }: remove it or check its spelling (server-owned fields such as id cannot be written)`,
        });
      }
    } else {
      details.push({ path, message: issue.message });
    }
  }
  return details;
}
