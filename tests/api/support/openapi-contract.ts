/**
 * Checks answers against the served OpenAPI document with ajv: the status must be documented for
 * the operation, every documented required header present and valid, and the body valid against
 * the documented schema. Objects are checked closed (a field the document does not name fails),
 * so the server cannot send what the document does not say. Records what was seen, so a test can
 * tell which documented statuses it never provoked.
 */
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

// deno-lint-ignore no-explicit-any
type Json = any;

/** One answer, as the test received it. */
export interface Answer {
  status: number;
  headers: Headers;
  /** Raw body text. */
  text: string;
}

const DOCUMENT_ID = "https://events.test/openapi.json";

/** Copies a schema tree with `additionalProperties: false` wherever objects leave it open. */
function closed(node: Json): Json {
  if (Array.isArray(node)) return node.map(closed);
  if (node === null || typeof node !== "object") return node;
  const copy: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closed(v)]));
  if (copy.properties && copy.additionalProperties === undefined && !copy.allOf) {
    copy.additionalProperties = false;
  }
  return copy;
}

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

/** Validates answers of the operations of one document. */
export class ContractChecker {
  readonly document: Json;
  readonly #ajv: Ajv2020;
  /** `operationId status` pairs answered so far. */
  readonly seen = new Set<string>();

  constructor(document: Json) {
    this.document = document;
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(this.#ajv);
    const schemas = closed({ components: document.components, paths: document.paths });
    this.#ajv.addSchema({ $id: DOCUMENT_ID, ...schemas });
  }

  /** Every operation as [method, path, operation]. */
  operations(): [string, string, Json][] {
    return Object.entries(this.document.paths).flatMap(([path, item]: [string, Json]) =>
      Object.entries(item).map(([method, op]): [string, string, Json] => [method, path, op])
    );
  }

  #operation(method: string, path: string): Json {
    const op = this.document.paths[path]?.[method.toLowerCase()];
    assert.ok(op, `${method} ${path} is not in the document`);
    return op;
  }

  #resolve(node: Json): Json {
    if (!node?.$ref) return node;
    const parts = node.$ref.replace(/^#\//, "").split("/");
    return parts.reduce(
      (n: Json, p: string) => n[p.replaceAll("~1", "/").replaceAll("~0", "~")],
      this.document,
    );
  }

  #validate(at: string, value: unknown, what: string): void {
    const validate = this.#ajv.getSchema(`${DOCUMENT_ID}#/${at}`);
    assert.ok(validate, `no schema at ${at}`);
    const ok = validate(value);
    assert.ok(
      ok,
      `${what}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(value).slice(0, 500)}`,
    );
  }

  /** Asserts that `answer` is what the document promises for `method path`; returns its JSON. */
  check(method: string, path: string, answer: Answer): Json {
    const op = this.#operation(method, path);
    const status = String(answer.status);
    const what = `${method} ${path} -> ${status}`;
    const response = this.#resolve(op.responses[status] ?? op.responses.default);
    assert.ok(response, `${what} is not documented (body: ${answer.text.slice(0, 300)})`);
    this.seen.add(`${op.operationId} ${status}`);
    for (const [name, declared] of Object.entries<Json>(response.headers ?? {})) {
      const header = this.#resolve(declared);
      const value = answer.headers.get(name);
      if (value === null) {
        assert.ok(!header.required, `${what} lacks the header ${name}`);
        continue;
      }
      const typed = header.schema?.type === "integer" ? Number(value) : value;
      const at = pointer("paths", path, method.toLowerCase(), "responses", status, "headers", name);
      const target = declared.$ref ? `components/headers/${pointer(name)}/schema` : `${at}/schema`;
      this.#validate(target, typed, `${what} header ${name}`);
    }
    const declared = Object.keys(response.content ?? {});
    if (declared.length === 0) {
      assert.equal(answer.text, "", `${what} has a body the document does not describe`);
      return undefined;
    }
    const type = answer.headers.get("Content-Type") ?? "";
    assert.ok(declared.some((m) => type.startsWith(m)), `${what}: ${type} is not in ${declared}`);
    // Only JSON bodies have a schema to check; a file (such as a backup) is what it says.
    if (!type.startsWith("application/json")) return answer.text;
    const body = JSON.parse(answer.text);
    const at = pointer("paths", path, method.toLowerCase(), "responses", status);
    const responseAt = op.responses[status]?.$ref
      ? op.responses[status].$ref.replace(/^#\//, "")
      : at;
    this.#validate(`${responseAt}/content/application~1json/schema`, body, what);
    return body;
  }

  /** Documented `operationId status` pairs never answered, less those in `unreachable`. */
  unseen(unreachable: Set<string>): string[] {
    return this.operations().flatMap(([, , op]) =>
      Object.keys(op.responses).map((status) => `${op.operationId} ${status}`)
    ).filter((pair) => !this.seen.has(pair) && !unreachable.has(pair));
  }
}
