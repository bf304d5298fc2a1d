/** The operator's key API: create, list, filter by status, revoke; and who may use it. */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestApp } from "../../dev-support/test-server.ts";
import { generateApiKey, isWellFormedApiKey } from "../../shared/api-key-format.ts";
import { detailsAt, get, post, postEvents } from "./support/http.ts";
import { freshEvent } from "./support/batches.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] operators create, list and revoke API keys`, async (t) => {
    const server = await startTestApp(kind);
    const admin = server.adminKey;
    const create = (body: unknown) => post(server.url, "/api/v1/admin/keys", admin, body);
    const list = (query = "") =>
      get(server.url, `/api/v1/admin/keys${query}`, { Authorization: `Bearer ${admin}` });
    const revoke = (ref: string) =>
      post(server.url, `/api/v1/admin/keys/${encodeURIComponent(ref)}/revoke`, admin, "");
    try {
      let created: Record<string, unknown> = {};
      await t.step("a new key is answered with 201 and shown in full only then", async () => {
        const reply = await create({
          contributor: "carol@example.org",
          name: "Carol's importer",
          scopes: ["events:write"],
          rate_limit_per_minute: 120,
        });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        created = reply.body.data;
        assert.ok(isWellFormedApiKey(String(created.key)));
        assert.ok(String(created.key).startsWith(String(created.prefix)));
        assert.equal(created.contributor, "carol@example.org");
        assert.equal(created.name, "Carol's importer");
        assert.deepEqual(created.scopes, ["events:write"]);
        assert.equal(created.rate_limit_per_minute, 120);
        assert.equal(created.status, "untrusted");
        assert.equal(created.trusted, false);
        assert.equal(created.revoked_at, null);
        const used = await postEvents(server.url, String(created.key), { events: [freshEvent()] });
        assert.equal(used.status, 200);
      });

      await t.step(
        "a key made without scopes or limit gets events:write and the default",
        async () => {
          const reply = await create({ contributor: "dave", name: "plain" });
          assert.equal(reply.status, 201, JSON.stringify(reply.body));
          assert.deepEqual(reply.body.data.scopes, ["events:write"]);
          assert.equal(reply.body.data.rate_limit_per_minute, 60);
        },
      );

      await t.step("the listing shows every key but never a key itself", async () => {
        const reply = await list();
        assert.equal(reply.status, 200);
        const keys = reply.body.data;
        assert.ok(keys.length >= 2);
        const text = JSON.stringify(reply.body);
        assert.ok(!text.includes(String(created.key)), "the full key leaked into the listing");
        // deno-lint-ignore no-explicit-any
        for (const k of keys as any[]) {
          assert.equal(k.key, undefined);
          assert.equal(k.digest, undefined);
          assert.match(k.prefix, /^evk_[0-9A-Za-z]{8}$/);
        }
        // deno-lint-ignore no-explicit-any
        const carol = keys.find((k: any) => k.id === created.id);
        assert.equal(carol.status, "pending", "a key that sent its first batch awaits review");
        assert.ok(carol.first_batch_at);
      });

      await t.step("revoking by id answers the revoked key and is idempotent", async () => {
        const k = await createApiKey(server, { name: "short-lived" });
        const first = await revoke(k.id);
        assert.equal(first.status, 200, JSON.stringify(first.body));
        assert.equal(first.body.data.status, "revoked");
        assert.ok(first.body.data.revoked_at);
        assert.equal(first.body.data.key, undefined);
        const second = await revoke(k.id);
        assert.equal(second.status, 200);
        assert.equal(second.body.data.revoked_at, first.body.data.revoked_at);
        assert.equal((await postEvents(server.url, k.key, { events: [freshEvent()] })).status, 401);
      });

      await t.step("a key can be named by its display prefix", async () => {
        const k = await createApiKey(server, { name: "by prefix" });
        const reply = await revoke(k.prefix);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.data.id, k.id);
      });

      await t.step("status filters the listing", async () => {
        // deno-lint-ignore no-explicit-any
        const statuses = async (q: string) => (await list(q)).body.data.map((k: any) => k.status);
        const revoked = await statuses("?status=revoked");
        assert.equal(revoked.length, 2);
        assert.ok(revoked.every((s: string) => s === "revoked"));
        assert.deepEqual(await statuses("?status=pending"), ["pending"]);
        const untrusted = await statuses("?status=untrusted");
        assert.ok(untrusted.length >= 1 && untrusted.every((s: string) => s === "untrusted"));
        const bad = await list("?status=bogus");
        detailsAt(bad, ["query", "status"]);
        detailsAt(await list("?colour=red"), ["query", "colour"]);
      });

      await t.step("an unknown key reference gets 404", async () => {
        for (
          const ref of [crypto.randomUUID(), "evk_ZZZZZZZZ", "nope", "a\u0000b", "x".repeat(3000)]
        ) {
          const reply = await revoke(ref);
          assert.equal(reply.status, 404, `${ref.slice(0, 20)}: ${JSON.stringify(reply.body)}`);
          assert.equal(typeof reply.body.message, "string");
        }
      });

      await t.step("bad creation bodies get 400 naming the field", async () => {
        const cases: [unknown, string][] = [
          [{ name: "no contributor" }, "contributor"],
          [{ contributor: "x" }, "name"],
          [{ contributor: "  ", name: "blank" }, "contributor"],
          [{ contributor: "x", name: "y", scopes: [] }, "scopes"],
          [{ contributor: "x", name: "y", scopes: ["root"] }, "scopes"],
          [{ contributor: "x", name: "y", scopes: "admin" }, "scopes"],
          [{ contributor: "x", name: "y", rate_limit_per_minute: 0 }, "rate_limit_per_minute"],
          [{ contributor: "x", name: "y", rate_limit_per_minute: 1.5 }, "rate_limit_per_minute"],
          [{ contributor: "x", name: "y", rate_limit_per_minute: "60" }, "rate_limit_per_minute"],
          [{ contributor: "x", name: "y", trusted: true }, "trusted"],
          [{ contributor: "a\u0000b", name: "y" }, "contributor"],
          [{ contributor: "x", name: "\ud800" }, "name"],
        ];
        for (const [body, field] of cases) {
          const reply = await create(body);
          assert.equal(reply.status, 400, `${JSON.stringify(body)}: ${reply.status}`);
          const problem = reply.body.details.find((d: { path: unknown[] }) => d.path[0] === field);
          assert.ok(problem, `${JSON.stringify(body)}: ${JSON.stringify(reply.body.details)}`);
        }
        for (const body of ["not json", "[]", ""]) {
          assert.equal((await create(body)).status, 400);
        }
      });

      await t.step("the key API needs a valid key with the admin scope", async () => {
        const writer = await createApiKey(server, { name: "writer" });
        const routes: [string, string][] = [
          ["GET", "/api/v1/admin/keys"],
          ["POST", "/api/v1/admin/keys"],
          ["POST", `/api/v1/admin/keys/${writer.id}/revoke`],
        ];
        for (const [method, path] of routes) {
          const call = (key: string | null) =>
            method === "GET"
              ? get(server.url, path, key ? { Authorization: `Bearer ${key}` } : {})
              : post(server.url, path, key, { contributor: "x", name: "y" });
          const anonymous = await call(null);
          assert.equal(anonymous.status, 401);
          assert.match(anonymous.headers.get("WWW-Authenticate") ?? "", /^Bearer/);
          assert.equal((await call(generateApiKey())).status, 401);
          const forbidden = await call(writer.key);
          assert.equal(forbidden.status, 403);
          assert.match(forbidden.body.message, /admin/);
        }
      });

      await t.step("a key with the admin scope may create further keys", async () => {
        const ops = await createApiKey(server, { scopes: ["admin"], name: "ops" });
        const reply = await post(server.url, "/api/v1/admin/keys", ops.key, {
          contributor: "erin",
          name: "made by ops",
        });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        assert.equal(reply.body.data.created_by, ops.prefix);
      });
    } finally {
      await server.close();
    }
  });
}
