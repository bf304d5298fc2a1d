/** zod's issues become the spec's details: one plain sentence per problem, naming the field. */
import assert from "node:assert/strict";
import { z } from "zod";
import { toValidationDetails } from "../../shared/validation-details.ts";

const Key = z.strictObject({
  name: z.string().trim().min(1).max(5),
  scopes: z.array(z.enum(["events:write", "admin"])).min(1),
  limit: z.number().int().min(1).optional(),
});

function details(input: unknown, root?: "request body" | "query string" | "event") {
  const parsed = Key.safeParse(input);
  assert.ok(!parsed.success);
  return toValidationDetails(parsed.error.issues, root ? { root } : {});
}

Deno.test("zod's generic English is replaced by a sentence naming the field", () => {
  assert.deepEqual(details({ scopes: ["admin"] }), [{
    path: ["name"],
    message: "name is required",
  }]);
  assert.deepEqual(details({ name: 5, scopes: ["admin"] }), [
    { path: ["name"], message: "name must be a string, not a number" },
  ]);
  assert.deepEqual(details({ name: "", scopes: ["admin"] }), [
    { path: ["name"], message: "name must not be empty" },
  ]);
  assert.deepEqual(details({ name: "toolong", scopes: ["admin"] }), [
    { path: ["name"], message: "name must have at most 5 characters" },
  ]);
  assert.deepEqual(details({ name: "a", scopes: ["root"] }), [
    { path: ["scopes", 0], message: 'scopes[0] must be one of "events:write", "admin"' },
  ]);
  assert.deepEqual(details({ name: "a", scopes: [] }), [
    { path: ["scopes"], message: "scopes must have at least 1 item" },
  ]);
  assert.deepEqual(details({ name: "a", scopes: ["admin"], limit: 1.5 }), [
    { path: ["limit"], message: "limit must be a whole number" },
  ]);
  assert.deepEqual(details({ name: "a", scopes: ["admin"], limit: null }), [
    { path: ["limit"], message: "limit must be a number, not null" },
  ]);
  assert.deepEqual(details("x"), [
    { path: [], message: "the request body must be an object, not a string" },
  ]);
});

Deno.test("an unknown key is named for what holds it: body, query string or event", () => {
  const extra = { name: "a", scopes: ["admin"], colour: "red" };
  assert.equal(
    details(extra)[0].message,
    "colour is not a field of the request body: remove it or check its spelling",
  );
  assert.equal(
    details(extra, "query string")[0].message,
    "colour is not a query parameter of this endpoint: remove it or check its spelling",
  );
  assert.match(details(extra, "event")[0].message, /^colour is not a field of an event: /);
});

Deno.test("a schema's own message is kept as written", () => {
  const schema = z.object({ n: z.number().refine((n) => n > 2, { message: "n must exceed 2" }) });
  const parsed = schema.safeParse({ n: 1 });
  assert.ok(!parsed.success);
  assert.deepEqual(toValidationDetails(parsed.error.issues), [
    { path: ["n"], message: "n must exceed 2" },
  ]);
});
