/** The documented error bodies: a 400 lists `details`; every other error has `code` and `message`. */
import assert from "node:assert/strict";

/** Fails unless `status` is not a 5xx and `body` has the documented shape for it. */
export function assertDocumentedError(status: number, body: unknown, context: string): void {
  assert.ok(status < 500, `${context}: answered ${status} ${JSON.stringify(body)}`);
  assert.ok(status >= 400, `${context}: expected an error, got ${status}`);
  assert.ok(typeof body === "object" && body !== null, `${context}: the body is not JSON`);
  const b = body as Record<string, unknown>;
  if (status === 400) {
    assert.equal(b.error, "Validation failed", context);
    assert.ok(Array.isArray(b.details) && b.details.length > 0, `${context}: no details`);
    for (const d of b.details as Record<string, unknown>[]) {
      assert.ok(Array.isArray(d.path), `${context}: a detail without a path array`);
      for (const p of d.path as unknown[]) {
        assert.ok(typeof p === "string" || typeof p === "number", `${context}: bad path item`);
      }
      assert.ok(typeof d.message === "string" && d.message.length > 0, `${context}: no message`);
    }
    assert.deepEqual(Object.keys(b).sort(), ["details", "error"], context);
  } else {
    assert.ok(typeof b.error === "string" && b.error.length > 0, `${context}: no error`);
    assert.ok(typeof b.code === "string" && b.code.length > 0, `${context}: no code`);
    assert.ok(typeof b.message === "string" && b.message.length > 0, `${context}: no message`);
  }
}

/** Reads a response's body as JSON, or fails saying what came instead. */
export async function jsonBody(res: Response, context: string): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    assert.fail(`${context}: ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
}
