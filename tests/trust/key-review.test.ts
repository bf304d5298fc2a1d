/** The operator's review of keys: pending list, first batch, trust with who and when, limits. */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { admin } from "../search/support.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a key waits for review after its first batch, which the operator can read`, async () => {
    const server = await startTestApp(kind);
    try {
      const fresh = await createApiKey(server, { contributor: "quiet" });
      const active = await createApiKey(server, { contributor: "busy" });
      await postBatch(server.url, active.key, { events: [sampleEvent(2), sampleEvent(1)] });
      await postBatch(server.url, active.key, { events: [sampleEvent(3)] });

      const pending = await admin(server, "GET", "/api/v1/admin/keys?status=pending");
      assert.deepEqual(pending.body.data.map((k: { id: string }) => k.id), [active.id]);
      const untrusted = await admin(server, "GET", "/api/v1/admin/keys?status=untrusted");
      assert.deepEqual(untrusted.body.data.map((k: { id: string }) => k.id), [fresh.id]);

      const detail = await admin(server, "GET", `/api/v1/admin/keys/${active.prefix}`);
      assert.equal(detail.status, 200);
      assert.equal(detail.body.data.status, "pending");
      const batch = detail.body.data.first_batch;
      assert.ok(!Number.isNaN(Date.parse(batch.received_at)));
      // The first batch only, in its order, as full stored events.
      assert.deepEqual(batch.events.map((e: { external_id: string }) => e.external_id), [
        "evt-2",
        "evt-1",
      ]);
      assert.equal(batch.events[0].in_ai_search, false);

      const none = await admin(server, "GET", `/api/v1/admin/keys/${fresh.id}`);
      assert.equal(none.body.data.first_batch, null);
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] trust and untrust record who decided and when`, async () => {
    const server = await startTestApp(kind);
    try {
      const key = await createApiKey(server);
      await postBatch(server.url, key.key, { events: [sampleEvent(1)] });
      const before = Date.now();
      const trusted = await admin(server, "POST", `/api/v1/admin/keys/${key.id}/trust`);
      assert.equal(trusted.status, 200);
      assert.equal(trusted.body.data.status, "trusted");
      assert.equal(trusted.body.data.trusted, true);
      assert.equal(trusted.body.data.reviewed_by, "ADMIN_API_KEY");
      assert.ok(Date.parse(trusted.body.data.reviewed_at) >= before - 1000);

      // An operator key made through the API is recorded by its display prefix.
      const operator = await createApiKey(server, { scopes: ["admin"], contributor: "ops" });
      const res = await server.fetch(`${server.url}/api/v1/admin/keys/${key.prefix}/untrust`, {
        method: "POST",
        headers: { Authorization: `Bearer ${operator.key}` },
      });
      const body = await res.json();
      assert.equal(res.status, 200);
      assert.equal(body.data.trusted, false);
      assert.equal(body.data.status, "untrusted");
      assert.equal(body.data.reviewed_by, operator.prefix);
      const trustedList = await admin(server, "GET", "/api/v1/admin/keys?status=trusted");
      assert.deepEqual(trustedList.body.data, []);
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] review endpoints refuse unknown keys, revoked keys and non-operators`, async () => {
    const server = await startTestApp(kind);
    try {
      const key = await createApiKey(server);
      const missing = await admin(server, "POST", "/api/v1/admin/keys/evk_nope/trust");
      assert.equal(missing.status, 404);
      assert.match(missing.body.message, /evk_nope/);

      const asContributor = await server.fetch(`${server.url}/api/v1/admin/keys/${key.id}/trust`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key.key}` },
      });
      assert.equal(asContributor.status, 403);
      await asContributor.body?.cancel();
      const anonymous = await server.fetch(`${server.url}/api/v1/admin/keys/${key.id}`);
      assert.equal(anonymous.status, 401);
      await anonymous.body?.cancel();

      await admin(server, "POST", `/api/v1/admin/keys/${key.id}/revoke`);
      const revoked = await admin(server, "POST", `/api/v1/admin/keys/${key.id}/trust`);
      assert.equal(revoked.status, 409);
      assert.match(revoked.body.message, /revoked/);
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] an operator changes a key's rate limit, effective on its next request`, async () => {
    const server = await startTestApp(kind);
    try {
      const key = await createApiKey(server);
      const patched = await admin(server, "PATCH", `/api/v1/admin/keys/${key.prefix}`, {
        rate_limit_per_minute: 2,
      });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.data.rate_limit_per_minute, 2);
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const r = await postBatch(server.url, key.key, { events: [sampleEvent(i)] });
        statuses.push(r.status);
        if (i === 0) assert.match(r.headers.get("RateLimit-Policy") ?? "", /q=2/);
      }
      assert.deepEqual(statuses, [200, 200, 429]);

      for (
        const bad of [{ rate_limit_per_minute: 0 }, { rate_limit_per_minute: 1.5 }, {}, {
          rate_limit_per_minute: 5,
          trusted: true,
        }]
      ) {
        const r = await admin(server, "PATCH", `/api/v1/admin/keys/${key.id}`, bad);
        assert.equal(r.status, 400, JSON.stringify(bad));
        assert.equal(r.body.error, "Validation failed");
      }
    } finally {
      await server.close();
    }
  });
}
