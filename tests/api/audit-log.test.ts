/**
 * The audit log: every operator decision, through the API or the review queue, is recorded with
 * who, what, when and the counts, listed newest first with a cursor, and shown to operators.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { admin, type Json } from "../search/support.ts";
import { signedInOperator, signedUpContributor } from "../support/unreviewed.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the audit log lists each operator decision in order, with the counts`, async (t) => {
    const server = await startTestServer(kind, { operatorEmails: ["op@example.org"] });
    try {
      const key = await createApiKey(server, { contributor: "feed" });
      await postBatch(server.url, key.key, { events: [sampleEvent(1), sampleEvent(2)] });
      const [{ contributor_id: contributorId }] = await server.service.deps.db.sql`
        SELECT contributor_id FROM api_keys WHERE id = ${key.id}`;
      const operator = await createApiKey(server, { contributor: "ops", scopes: ["admin"] });
      const op = await signedInOperator(server, "op@example.org");

      await admin(server, "POST", `/api/v1/admin/keys/${key.id}/trust`);
      await admin(server, "POST", `/api/v1/admin/keys/${key.id}/untrust`);
      await server.fetch(`/api/v1/admin/keys/${key.id}`, {
        method: "PATCH",
        headers: { Authorization: `Bearer ${operator.key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ rate_limit_per_minute: 120 }),
      });
      await op.get(`/review/keys/${key.id}/revoke`);
      assert.equal((await op.post(`/review/keys/${key.id}/revoke`, {})).status, 303);
      await admin(server, "DELETE", `/api/v1/admin/contributors/${contributorId}/events`);
      // A contributor revoking its own key on the dashboard is no operator decision.
      const stranger = await signedUpContributor(server.url, { email: "s@example.org", keys: 1 });
      await stranger.client.get(`/dashboard/keys/${stranger.keys[0].id}/revoke`);
      await stranger.client.post(`/dashboard/keys/${stranger.keys[0].id}/revoke`, {});

      await t.step("the API lists them newest first, with who and the counts", async () => {
        const answer = await admin(server, "GET", "/api/v1/admin/audit");
        assert.equal(answer.status, 200);
        const entries = answer.body.data.map((d: Json) => [d.action, d.decided_by, d.details]);
        assert.deepEqual(entries, [
          ["delete_events", "ADMIN_API_KEY", { events_deleted: 2 }],
          ["revoke", "op@example.org", { key_events: 2 }],
          ["rate_change", operator.prefix, { from: 60, to: 120 }],
          ["untrust", "ADMIN_API_KEY", { key_events: 2 }],
          ["trust", "ADMIN_API_KEY", { key_events: 2 }],
        ]);
        for (const entry of answer.body.data) {
          assert.equal(entry.contributor, "feed");
          assert.equal(entry.contributor_id, contributorId);
          assert.ok(!Number.isNaN(Date.parse(entry.decided_at)));
        }
        assert.equal(answer.body.data[1].key_prefix, key.prefix);
        assert.equal(answer.body.next_cursor, null);
      });

      await t.step("the cursor pages through every decision once", async () => {
        const seen: string[] = [];
        let cursor: string | null = null;
        for (let page = 0; page < 5; page++) {
          const query: string = cursor ? `limit=2&cursor=${cursor}` : "limit=2";
          const answer = await admin(server, "GET", `/api/v1/admin/audit?${query}`);
          seen.push(...answer.body.data.map((d: Json) => d.action));
          cursor = answer.body.next_cursor;
          if (cursor === null) break;
        }
        assert.deepEqual(seen, ["delete_events", "revoke", "rate_change", "untrust", "trust"]);
        const bad = await admin(server, "GET", "/api/v1/admin/audit?cursor=abc");
        assert.equal(bad.status, 400);
        assert.match(JSON.stringify(bad.body.details), /next_cursor of a previous page/);
      });

      await t.step("operators read it on the site; nobody else finds the page", async () => {
        const page = await op.get("/review/audit");
        assert.equal(page.status, 200);
        assert.match(page.text, /delete events.*revoke.*rate change.*untrust.*trust/s);
        assert.match(page.text, /events deleted 2/);
        assert.equal((await stranger.client.get("/review/audit")).status, 404);
      });
    } finally {
      await server.close();
    }
  });
}
