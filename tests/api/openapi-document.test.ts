/**
 * The served document is valid OpenAPI 3.1 and lints clean (no errors, no warnings) with
 * Redocly's recommended rules; every operation says who may call it.
 */
import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { startTestServer } from "../../dev-support/test-server.ts";

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

    await t.step("near and radius_km are typed as the server reads them", async () => {
      for (const path of ["/api/v1/events", "/api/v1/search"]) {
        const params = document.paths[path].get.parameters;
        const schema = (name: string) =>
          params.find((p: { name: string }) => p.name === name).schema;
        assert.equal(schema("radius_km").type, "number");
        assert.equal(schema("radius_km").exclusiveMinimum, 0);
        assert.equal(schema("radius_km").maximum, 1000);
        assert.equal(schema("near").type, "string");
        const pattern = new RegExp(schema("near").pattern, "u");
        // Points within range: the pattern says which forms the server takes, event by event.
        const forms = [
          ["52.52,13.405", true],
          ["+52.5, -13", true],
          [".5,1.", true],
          ["-0,0", true],
          ["52.52", false],
          ["52.52,13.405,1", false],
          ["1.2.3,4", false],
          ["a,b", false],
          ["5e1,3", false],
          [",", false],
        ] as const;
        for (const [near, valid] of forms) {
          assert.equal(pattern.test(near), valid, `pattern on ${near}`);
          const q = path === "/api/v1/search" ? "q=x&" : "";
          const res = await fetch(`${server.url}${path}?${q}near=${encodeURIComponent(near)}`);
          await res.body?.cancel();
          assert.equal(res.status, valid ? 200 : 400, `${path} near=${near}`);
        }
      }
    });

    await t.step("from, to and the text filters state the forms the server takes", async () => {
      for (const path of ["/api/v1/events", "/api/v1/search"]) {
        const params = document.paths[path].get.parameters;
        const schema = (name: string) =>
          params.find((p: { name: string }) => p.name === name).schema;
        const q = path === "/api/v1/search" ? "q=x&" : "";
        const status = async (query: string) => {
          const res = await fetch(`${server.url}${path}?${q}${query}`);
          await res.body?.cancel();
          return res.status;
        };
        const instant = new RegExp(schema("from").pattern, "u");
        assert.equal(schema("to").pattern, schema("from").pattern);
        // Each form the pattern admits is one the server reads, and each it refuses is a 400.
        const forms = [
          ["2026-05-01", true],
          ["2026-05-01T09:00:00Z", true],
          ["2026-05-01t09:00z", true],
          ["2026-05-01 09:00:00.123456+02:00", true],
          ["2026-05-01T09:00:00,5-0330", true],
          ["2026-05-01T09:00+02", true],
          ["2026-05-01T09:00:00", false],
          ["2026-13-01", false],
          ["2026-05-01T24:00Z", false],
          ["0000-01-01", false],
          ["26-05-01", false],
          ["tomorrow", false],
        ] as const;
        for (const [value, valid] of forms) {
          assert.equal(instant.test(value), valid, `pattern on ${value}`);
          const got = await status(`from=${encodeURIComponent(value)}`);
          assert.equal(got, valid ? 200 : 400, `${path} from=${value}`);
        }
        const text = new RegExp(schema("city").pattern, "u");
        for (const [value, valid] of [["Lisbon", true], [" x ", true], ["   ", false]] as const) {
          assert.equal(text.test(value), valid, `text pattern on ${JSON.stringify(value)}`);
          const got = await status(`city=${encodeURIComponent(value)}`);
          assert.equal(got, valid ? 200 : 400, `${path} city=${JSON.stringify(value)}`);
        }
      }
      const search = document.paths["/api/v1/search"].get.parameters;
      const q = search.find((p: { name: string }) => p.name === "q").schema;
      assert.equal(new RegExp(q.pattern, "u").test("  "), false);
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
