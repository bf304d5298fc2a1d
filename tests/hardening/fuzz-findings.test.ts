/**
 * What the long fuzz runs found, each kept as the test that would have caught it: inputs that once
 * answered 500 and must now be refused in the documented shape.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { startTestApp } from "../../dev-support/test-server.ts";
import { assertDocumentedError, jsonBody } from "./support/error-shape.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] fuzz findings: a NUL in the search words is a 400, not a 500`, async () => {
    const server = await startTestApp(kind);
    try {
      for (const mode of ["text", "semantic", "hybrid"]) {
        const res = await server.fetch(`${server.url}/api/v1/search?q=rust%00go&mode=${mode}`);
        const body = await jsonBody(res, mode);
        assert.equal(res.status, 400, `${mode}: ${JSON.stringify(body)}`);
        assertDocumentedError(res.status, body, mode);
        assert.deepEqual((body as { details: { path: unknown }[] }).details[0].path, [
          "query",
          "q",
        ]);
      }
    } finally {
      await server.close();
    }
  });
}
