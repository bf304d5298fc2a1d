/**
 * The served document is valid OpenAPI 3.1 and lints clean (no errors, no warnings) with
 * Redocly's recommended rules; every operation says who may call it.
 */
import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { startTestServer } from "../support/test-server.ts";

Deno.test("the OpenAPI document validates as 3.1 and lints clean", async (t) => {
  const server = await startTestServer("pglite");
  try {
    const document = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();

    await t.step("it validates against the OpenAPI 3.1 schema", async () => {
      const validator = new Validator();
      const result = await validator.validate(structuredClone(document));
      assert.equal(validator.version, "3.1");
      assert.ok(result.valid, JSON.stringify(result.errors, null, 1));
    });

    await t.step("Redocly's recommended rules find nothing", async () => {
      const config = await createConfig({ extends: ["recommended"] });
      const problems = await lintFromString({
        source: JSON.stringify(document),
        absoluteRef: "openapi.json",
        config,
      });
      const found = problems.map((p) =>
        `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`
      );
      assert.deepEqual(found, []);
    });

    await t.step("every operation has an id, a tag and an explicit security", () => {
      for (
        const [path, item] of Object.entries<Record<string, Record<string, unknown>>>(
          document.paths,
        )
      ) {
        for (const [method, op] of Object.entries(item)) {
          assert.ok(op.operationId, `${method} ${path} lacks an operationId`);
          assert.ok(Array.isArray(op.tags) && op.tags.length > 0, `${method} ${path} lacks tags`);
          assert.ok(Array.isArray(op.security), `${method} ${path} lacks security`);
        }
      }
      assert.ok(document.info.license?.name);
    });

    await t.step("query parameters are typed, not all strings", () => {
      const params = document.paths["/api/v1/events"].get.parameters;
      const schema = (name: string) => params.find((p: { name: string }) => p.name === name).schema;
      assert.equal(schema("limit").type, "integer");
      assert.equal(schema("is_free").type, "boolean");
      assert.equal(schema("is_virtual").type, "boolean");
      assert.deepEqual(schema("platform").enum.length, 7);
    });

    await t.step("URL fields claim no format the server does not enforce", () => {
      const event = document.components.schemas.Event.properties;
      for (const field of ["source_url", "organiser_url", "cover_image_url"]) {
        assert.equal(JSON.stringify(event[field]).includes('"format"'), false, field);
      }
    });
  } finally {
    await server.close();
  }
});
