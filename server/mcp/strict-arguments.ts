/** Tool arguments as a strict object: a misspelt argument is an error naming the right ones. */
import { z } from "zod";

/** A strict object schema whose unknown-key message lists the arguments the tool takes. */
export function strictArguments<T extends z.ZodRawShape>(shape: T): z.ZodObject<T, z.core.$strict> {
  const names = Object.keys(shape).join(", ");
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown argument ${issue.keys.join(", ")}: this tool takes ${names}`
        : issue.code === "invalid_type"
        ? `the arguments must be an object with some of ${names}`
        : undefined,
  });
}
