/**
 * The SDK turns a tool's zod schemas into JSON Schema on each server instance, and this endpoint
 * builds a server per request: converting the output schema alone cost every call about as much
 * as the rest of the protocol. The conversions are pure, so each is made once per schema.
 */
import type { z } from "zod";

type JsonSchemaOptions = { target?: string; libraryOptions?: Record<string, unknown> };
type Converter = (options?: JsonSchemaOptions) => Record<string, unknown>;
type StandardWithJson = { jsonSchema: { input: Converter; output: Converter } };

/** `schema`, whose `~standard.jsonSchema` conversions now remember their (frozen) results. */
export function memoiseJsonSchema<T extends z.ZodType>(schema: T): T {
  const standard = schema["~standard"] as unknown as StandardWithJson;
  const memo = (convert: Converter): Converter => {
    const results = new Map<string, Record<string, unknown>>();
    return (options) => {
      const key = JSON.stringify(options ?? {});
      let result = results.get(key);
      if (result === undefined) {
        result = deepFreeze(convert(options));
        results.set(key, result);
      }
      return result;
    };
  };
  // zod keeps `~standard` as a settable own property: replacing it changes nothing else.
  (schema as unknown as { "~standard": unknown })["~standard"] = {
    ...standard,
    jsonSchema: {
      input: memo(standard.jsonSchema.input),
      output: memo(standard.jsonSchema.output),
    },
  };
  return schema;
}

// Shared between requests, a schema must never be changed by one of them.
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
