/** Health, the OpenAPI document, request ids, and unknown routes. */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { startTestServer } from "../../dev-support/test-server.ts";
import { EVENT_FIELDS } from "../../shared/event-schema.ts";
import { get, send } from "./support/http.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the service reports its health, documents itself and tags requests`, async (t) => {
    const server = await startTestServer(kind);
    try {
      await t.step("GET /healthz says the database is reachable and migrated", async () => {
        const reply = await get(server.url, "/healthz");
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.status, "ok");
        assert.equal(reply.body.database.kind, kind);
        assert.equal(reply.body.database.reachable, true);
        assert.deepEqual(reply.body.database.pending_migrations, []);
      });

      await t.step("the OpenAPI 3.1 document describes the endpoints and the Event", async () => {
        const reply = await get(server.url, "/api/v1/openapi.json");
        assert.equal(reply.status, 200);
        const doc = reply.body;
        assert.match(doc.openapi, /^3\.1\./);
        assert.equal(typeof doc.info.title, "string");
        assert.equal(typeof doc.info.version, "string");
        for (const path of ["/api/v1/events", "/api/v1/events/{id}", "/api/v1/admin/keys"]) {
          assert.ok(doc.paths[path], `${path} is not documented`);
        }
        const post = doc.paths["/api/v1/events"].post;
        for (const status of ["200", "400", "401", "403", "413", "429"]) {
          assert.ok(post.responses[status], `POST /api/v1/events lacks ${status}`);
        }
        const event = doc.components.schemas.Event;
        const fields = Object.keys(event.properties);
        assert.equal(fields.length, 32);
        assert.deepEqual(fields.sort(), [...EVENT_FIELDS].sort());
        assert.deepEqual(
          [...event.required].sort(),
          ["external_id", "source_url", "starts_at", "title"],
        );
        assert.equal(event.additionalProperties, false);
        const batch = doc.components.schemas.EventBatch.properties.events;
        assert.deepEqual([batch.minItems, batch.maxItems], [1, 100]);
        assert.ok(doc.components.securitySchemes.bearerAuth);
      });

      await t.step(
        "every $ref in the document resolves",
        () =>
          get(server.url, "/api/v1/openapi.json").then(({ body: doc }) => {
            const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
            assert.ok(refs.length > 5);
            for (const ref of new Set(refs)) {
              const path = ref.slice(8, -1).replace(/^#\//, "").split("/");
              // deno-lint-ignore no-explicit-any
              const target = path.reduce((node: any, part) => node?.[part], doc);
              assert.ok(target, `${ref} does not resolve`);
            }
          }),
      );

      await t.step("a client's X-Request-Id is echoed, and one is made when missing", async () => {
        const mine = await get(server.url, "/healthz", { "X-Request-Id": "trace-42.a:b" });
        assert.equal(mine.headers.get("X-Request-Id"), "trace-42.a:b");
        const made = await get(server.url, "/api/v1/events");
        assert.match(made.headers.get("X-Request-Id") ?? "", /^[0-9a-f-]{36}$/);
        const hostile = await get(server.url, "/healthz", { "X-Request-Id": "a b<script>" });
        assert.match(hostile.headers.get("X-Request-Id") ?? "", /^[0-9a-f-]{36}$/);
        const refused = await send(`${server.url}/api/v1/events`, {
          method: "POST",
          headers: { "X-Request-Id": "failing-1" },
        });
        assert.equal(refused.status, 401);
        assert.equal(refused.headers.get("X-Request-Id"), "failing-1");
      });

      await t.step("an unknown route gets a JSON 404", async () => {
        for (const path of ["/api/v2/events", "/nothing", "/api/v1/events/x/y"]) {
          const reply = await get(server.url, path);
          assert.equal(reply.status, 404);
        }
      });

      await t.step("a wrong method on a known route gets a JSON error, not a 500", async () => {
        for (const method of ["PUT", "DELETE", "PATCH"]) {
          const reply = await send(`${server.url}/api/v1/events`, { method });
          assert.ok([404, 405].includes(reply.status), `${method}: ${reply.status}`);
        }
      });
    } finally {
      await server.close();
    }
  });
}
