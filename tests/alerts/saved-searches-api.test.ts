/**
 * /api/v1/me/searches: saving, listing, changing and deleting searches with a searches:write key,
 * the secret shown once, the limit with its own code, and what other keys cannot do.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestApp } from "../../dev-support/test-server.ts";
import { alertSettings, call } from "./support.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] saved searches through the API`, async (t) => {
    const server = await startTestApp(kind, {
      alerts: alertSettings({ maxSavedSearches: 3 }),
      alertWorker: false,
    });
    try {
      const alice = await createApiKey(server, {
        contributor: "alice",
        scopes: ["searches:write"],
      });
      const bob = await createApiKey(server, { contributor: "bob", scopes: ["searches:write"] });
      const pusher = await createApiKey(server, { contributor: "alice", scopes: ["events:write"] });
      const save = (body: unknown, key = alice.key) =>
        call(server, { method: "POST", path: "/api/v1/me/searches", key, body });
      let id = "";

      await t.step(
        "a save answers 201 with its id, feed URLs and no secret without a webhook",
        async () => {
          const r = await save({
            name: "Rust in Berlin",
            q: "rust",
            filters: { city: "Berlin", is_free: true, from: "2030-01-01" },
          });
          assert.equal(r.status, 201, JSON.stringify(r.body));
          id = r.body.data.id;
          assert.deepEqual(r.body.data.filters, {
            city: "Berlin",
            is_free: true,
            from: "2030-01-01",
          });
          assert.equal(r.body.data.email, "off");
          assert.equal(r.body.data.paused, false);
          assert.equal("webhook_secret" in r.body.data, false);
          assert.match(r.body.data.feed_ics_url, /^http:\/\/[^/]+\/alerts\/[\w-]{43}\.ics$/);
          assert.match(r.body.data.feed_atom_url, /\.atom$/);
        },
      );

      await t.step(
        "filters are read as the listing reads its query, each problem at its path",
        async () => {
          const r = await save({
            name: "x",
            filters: { is_free: "maybe", platform: "myspace", collapse: false },
          });
          assert.equal(r.status, 400);
          const paths = r.body.details.map((d: { path: unknown[] }) => d.path.join("."));
          for (const p of ["filters.is_free", "filters.platform", "filters.collapse"]) {
            assert.ok(paths.includes(p), `${p} in ${paths}`);
          }
          const radius = await save({ name: "x", filters: { radius_km: 5 } });
          assert.equal(radius.status, 400);
          assert.deepEqual(radius.body.details[0].path, ["filters", "radius_km"]);
        },
      );

      await t.step("words that cannot be searched are refused", async () => {
        const r = await save({ name: "stop words", q: "the and of" });
        assert.equal(r.status, 400);
        assert.deepEqual(r.body.details[0].path, ["q"]);
      });

      await t.step(
        "a webhook on a private or unresolvable address is refused at save",
        async () => {
          for (
            const url of [
              "http://127.0.0.1:9/hook",
              "http://169.254.169.254/latest/meta-data",
              "http://[::1]/hook",
              "http://10.1.2.3/hook",
              "http://localhost:8080/hook",
              "http://no-such-host.invalid/hook",
            ]
          ) {
            const r = await save({ name: "hook", webhook_url: url });
            assert.equal(r.status, 400, url);
            assert.deepEqual(r.body.details[0].path, ["webhook_url"], url);
          }
        },
      );

      await t.step("mail needs a confirmed address", async () => {
        const r = await save({ name: "mail me", q: "rust", email: "instant" });
        assert.equal(r.status, 409);
        assert.equal(r.body.code, "email_not_verified");
      });

      await t.step("GET lists the key's contributor's searches, and one by id", async () => {
        const list = await call(server, {
          method: "GET",
          path: "/api/v1/me/searches",
          key: alice.key,
        });
        assert.equal(list.status, 200);
        assert.deepEqual(list.body.data.map((s: { id: string }) => s.id), [id]);
        const one = await call(server, {
          method: "GET",
          path: `/api/v1/me/searches/${id}`,
          key: alice.key,
        });
        assert.equal(one.status, 200);
        assert.deepEqual(one.body.data.deliveries, []);
      });

      await t.step("PATCH changes what it names, pauses, and revokes the feed URLs", async () => {
        const before = await call(server, {
          method: "GET",
          path: `/api/v1/me/searches/${id}`,
          key: alice.key,
        });
        const r = await call(server, {
          method: "PATCH",
          path: `/api/v1/me/searches/${id}`,
          key: alice.key,
          body: { name: "Rust anywhere", paused: true, revoke_feeds: true },
        });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.equal(r.body.data.name, "Rust anywhere");
        assert.equal(r.body.data.q, "rust");
        assert.deepEqual(r.body.data.filters, before.body.data.filters);
        assert.equal(r.body.data.paused, true);
        assert.notEqual(r.body.data.feed_ics_url, before.body.data.feed_ics_url);
        const cleared = await call(server, {
          method: "PATCH",
          path: `/api/v1/me/searches/${id}`,
          key: alice.key,
          body: { q: null, filters: { topic: "rust" } },
        });
        assert.equal(cleared.body.data.q, null);
        assert.deepEqual(cleared.body.data.filters, { topic: "rust" });
      });

      await t.step("another contributor's key sees none of them", async () => {
        for (const method of ["GET", "PATCH", "DELETE"]) {
          const r = await call(server, {
            method,
            path: `/api/v1/me/searches/${id}`,
            key: bob.key,
            body: method === "PATCH" ? { paused: false } : undefined,
          });
          assert.equal(r.status, 404, method);
        }
        const list = await call(server, {
          method: "GET",
          path: "/api/v1/me/searches",
          key: bob.key,
        });
        assert.deepEqual(list.body.data, []);
      });

      await t.step("a key without searches:write gets 403, no key 401", async () => {
        assert.equal((await save({ name: "x" }, pusher.key)).status, 403);
        assert.equal((await save({ name: "x" }, server.adminKey)).status, 403);
        const r = await call(server, { method: "GET", path: "/api/v1/me/searches", key: null });
        assert.equal(r.status, 401);
      });

      await t.step("past SAVED_SEARCHES_MAX a save gets 409 with its own code", async () => {
        assert.equal((await save({ name: "two", q: "go" })).status, 201);
        assert.equal((await save({ name: "three", q: "java" })).status, 201);
        const r = await save({ name: "four", q: "kotlin" });
        assert.equal(r.status, 409);
        assert.equal(r.body.code, "saved_searches_limit");
        assert.equal((await save({ name: "bob's", q: "kotlin" }, bob.key)).status, 201);
      });

      await t.step("DELETE removes it: 204, then 404", async () => {
        const del = () =>
          call(server, { method: "DELETE", path: `/api/v1/me/searches/${id}`, key: alice.key });
        assert.equal((await del()).status, 204);
        assert.equal((await del()).status, 404);
        const bad = await call(server, {
          method: "GET",
          path: "/api/v1/me/searches/not-a-uuid",
          key: alice.key,
        });
        assert.equal(bad.status, 404);
      });
    } finally {
      await server.close();
    }
  });
}
