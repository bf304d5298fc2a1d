/**
 * Who may do what: one contributor never changes another's events or keys, through the push or
 * any endpoint the OpenAPI document lists; every operator endpoint refuses contributor keys and
 * site sessions; server-owned fields of events and keys cannot be written.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { FormClient, signUp } from "../web/support/form-client.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** Every operation the OpenAPI document lists, as [method, path with sample parameters]. */
async function documentedOperations(url: string, ref: string): Promise<[string, string][]> {
  const doc = await (await fetch(`${url}/api/v1/openapi.json`)).json();
  const operations: [string, string][] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of Object.keys(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      operations.push([method.toUpperCase(), path.replace(/\{[^}]+\}/g, ref)]);
    }
  }
  return operations;
}

async function call(url: string, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
  });
  return { status: res.status, body: await res.json() as Json };
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] security: contributors, operators and server-owned fields`, async (t) => {
    const server = await startTestServer(kind);
    const sql = server.service.deps.db.sql;
    // Everything but a key's own last use, which every request with it updates.
    const snapshot = async () =>
      JSON.stringify(await sql`SELECT * FROM events ORDER BY id`) +
      JSON.stringify(
        await sql`SELECT to_jsonb(k) - 'last_used_at' AS k FROM api_keys k ORDER BY id`,
      );
    try {
      const ada = await createApiKey(server, { contributor: "ada" });
      // Its requests walk every documented operation: more than the default limit a minute.
      const bob = await createApiKey(server, { contributor: "bob", rate_limit_per_minute: 10_000 });
      const pushed = await postBatch(server.url, ada.key, {
        events: [sampleEvent(1, { platform: "meetup" }), sampleEvent(2)],
      });
      assert.equal(pushed.status, 200);
      const [adaEvent] = await sql<{ id: string }[]>`
        SELECT id FROM events WHERE external_id = 'evt-1'`;

      await t.step("another contributor's pairs are reported, never overwritten", async () => {
        const before = await snapshot();
        const res = await postBatch(server.url, bob.key, {
          events: [
            sampleEvent(1, { platform: "meetup", title: "Hijacked" }),
            sampleEvent(2, { title: "Hijacked" }),
          ],
        });
        assert.equal(res.status, 200);
        assert.deepEqual(res.body.data.errors.map((e: Json) => [e.index, e.code]), [
          [0, "owned_by_another_contributor"],
          [1, "owned_by_another_contributor"],
        ]);
        assert.equal(res.body.data.inserted + res.body.data.updated, 0);
        assert.equal(await snapshot(), before);
      });

      await t.step("every operator endpoint refuses a contributor key with 403", async () => {
        const before = await snapshot();
        for (const ref of [ada.prefix, ada.id, adaEvent.id]) {
          for (const [method, path] of await documentedOperations(server.url, ref)) {
            if (!path.startsWith("/api/v1/admin")) continue;
            const res = await call(server.url, method, path, bob.key, {
              rate_limit_per_minute: 1,
              contributor: "bob",
              name: "x",
              scopes: ["admin"],
            });
            assert.equal(res.status, 403, `${method} ${path}: ${JSON.stringify(res.body)}`);
            assert.equal(res.body.code, "forbidden");
          }
        }
        assert.equal(await snapshot(), before, "nothing changed");
      });

      await t.step("contributor endpoints never reach another contributor's events", async () => {
        const ops = await documentedOperations(server.url, adaEvent.id);
        const before = await sql`SELECT * FROM events ORDER BY id`;
        for (const [method, path] of ops) {
          if (path.startsWith("/api/v1/admin") || method === "GET") continue;
          const res = await call(server.url, method, path, bob.key, {
            events: [{ external_id: "evt-1", platform: "meetup" }, { external_id: "evt-2" }],
          });
          assert.ok(res.status < 500, `${method} ${path}: ${res.status}`);
        }
        const after = await sql`SELECT * FROM events ORDER BY id`;
        assert.deepEqual(
          after.map((e) => [e.id, e.title, e.updated_at]),
          before.map((e) => [e.id, e.title, e.updated_at]),
          "ada's events are unchanged",
        );
      });

      await t.step("a site session is no key: the API refuses it", async () => {
        const visitor = new FormClient(server.url);
        await signUp(visitor, "mallory@example.org", "a long enough password");
        const cookie = [...visitor.cookies].map(([n, v]) => `${n}=${v}`).join("; ");
        for (const [method, path] of [["GET", "/api/v1/admin/keys"], ["POST", "/api/v1/events"]]) {
          const res = await fetch(`${server.url}${path}`, {
            method,
            headers: { Cookie: cookie, "Content-Type": "application/json" },
            body: method === "POST" ? JSON.stringify({ events: [sampleEvent(9)] }) : undefined,
          });
          assert.equal(res.status, 401, `${method} ${path}`);
          await res.body?.cancel();
        }
        await visitor.get("/dashboard");
        for (const key of [ada.key, server.adminKey]) {
          // Neither a contributor key nor the operator key makes an account that is not in
          // OPERATOR_EMAILS an operator.
          const operator = await visitor.post("/dashboard/operator", { operator_key: key });
          assert.equal(operator.status, 403);
          await visitor.get("/dashboard");
        }
        const [{ count }] =
          await sql`SELECT count(*)::int AS count FROM events WHERE external_id = 'evt-9'`;
        assert.equal(count, 0);
      });

      await t.step("server-owned fields of events and keys cannot be written", async () => {
        const before = await snapshot();
        const owned = {
          id: adaEvent.id,
          created_at: "2000-01-01T00:00:00Z",
          updated_at: "2000-01-01T00:00:00Z",
          in_ai_search: true,
          contributor_id: adaEvent.id,
          last_key_id: adaEvent.id,
          content_hash: "x",
          trusted: true,
        };
        for (const [field, value] of Object.entries(owned)) {
          const res = await postBatch(server.url, bob.key, {
            events: [sampleEvent(50, { [field]: value })],
          });
          assert.equal(res.status, 400, field);
          assert.deepEqual(res.body.details.map((d: Json) => d.path), [["events", 0, field]]);
        }
        const keyFields = {
          id: ada.id,
          trusted: true,
          digest: "x",
          prefix: "evk_AbCd1234",
          revoked_at: null,
          created_by: "me",
          contributor_id: ada.id,
        };
        for (const [field, value] of Object.entries(keyFields)) {
          const res = await call(server.url, "POST", "/api/v1/admin/keys", server.adminKey, {
            contributor: "eve",
            name: "k",
            scopes: ["events:write"],
            [field]: value,
          });
          assert.equal(res.status, 400, `create key with ${field}`);
          const patch = await call(
            server.url,
            "PATCH",
            `/api/v1/admin/keys/${bob.id}`,
            server.adminKey,
            {
              [field]: value,
            },
          );
          assert.equal(patch.status, 400, `patch key with ${field}`);
        }
        assert.equal(await snapshot(), before);
      });
    } finally {
      await server.close();
    }
  });
}
