/**
 * The review queue without a browser: only accounts with an OPERATOR_EMAILS address that proved
 * the operator key may use it; its decisions are the operator API's (trust, untrust, revoke,
 * delete a contributor's events), with the same rules.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { FormClient, signUp } from "./support/form-client.ts";

const PASSWORD = "correct horse battery staple";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the review queue is for confirmed operators and decides like the API`, async (t) => {
    const server = await startTestServer(kind, { operatorEmails: ["op@example.org"] });
    const sql = server.service.deps.db.sql;
    try {
      const key = await createApiKey(server, { contributor: "spammer" });
      await postBatch(server.url, key.key, {
        events: [sampleEvent(1, { title: "Totally real <b>conference</b>" }), sampleEvent(2)],
      });
      const op = new FormClient(server.url);
      const someone = new FormClient(server.url);
      await signUp(op, "op@example.org", PASSWORD);
      await signUp(someone, "someone@example.org", PASSWORD);

      await t.step("nobody but a confirmed operator finds the queue", async () => {
        assert.equal((await new FormClient(server.url).get("/review")).status, 303);
        assert.equal((await someone.get("/review")).status, 404);
        assert.equal((await op.get("/review")).status, 404, "the address alone is not enough");
        await op.get("/dashboard");
        const wrong = await op.post("/dashboard/operator", { operator_key: "evk_not-it" });
        assert.equal(wrong.status, 403);
        await someone.get("/dashboard");
        const notListed = await someone.post("/dashboard/operator", {
          operator_key: server.adminKey,
        });
        assert.equal(notListed.status, 403, "the key alone is not enough either");
        await op.get("/dashboard");
        const right = await op.post("/dashboard/operator", { operator_key: server.adminKey });
        assert.equal(right.status, 303);
        assert.equal((await op.get("/review")).status, 200);
      });

      await t.step("the pending key's first batch is shown as the site shows events", async () => {
        const queue = await op.get("/review");
        assert.match(queue.text, new RegExp(`<code>${key.prefix}…</code>`));
        assert.ok(queue.text.includes("Totally real &lt;b&gt;conference&lt;/b&gt;"));
        assert.ok(queue.text.includes("Tech talk number 2"));
      });

      await t.step("trust and untrust change AI-search eligibility as the API does", async () => {
        const trusted = await op.post(`/review/keys/${key.id}/trust`, {});
        assert.equal(trusted.status, 303);
        const [row] = await sql`SELECT trusted, reviewed_by FROM api_keys WHERE id = ${key.id}`;
        assert.deepEqual({ ...row }, { trusted: true, reviewed_by: "op@example.org" });
        await op.get("/review");
        await op.post(`/review/keys/${key.id}/untrust`, {});
        const [after] = await sql`SELECT trusted FROM api_keys WHERE id = ${key.id}`;
        assert.equal(after.trusted, false);
        const queue = await op.get("/review");
        assert.match(queue.text, /Nothing to review/, "decided keys leave the queue");
      });

      await t.step("revoke, then trusting is refused as by the API (409)", async () => {
        await op.get(`/review/keys/${key.id}/revoke`);
        assert.equal((await op.post(`/review/keys/${key.id}/revoke`, {})).status, 303);
        assert.equal(
          (await postBatch(server.url, key.key, { events: [sampleEvent(3)] })).status,
          401,
        );
        await op.get("/review");
        const refused = await op.post(`/review/keys/${key.id}/trust`, {});
        assert.equal(refused.status, 409);
        assert.match(refused.text, /Cannot trust the key .*: it was revoked/);
      });

      await t.step("delete every event of a contributor", async () => {
        const [{ contributor_id }] = await sql`SELECT contributor_id FROM api_keys
          WHERE id = ${key.id}`;
        const path = `/review/contributors/${contributor_id}/delete-events`;
        await someone.get("/dashboard");
        assert.equal((await someone.post(path, {})).status, 404, "not for other accounts");
        await op.get(path);
        assert.equal((await op.post(path, {})).status, 303);
        const [{ n }] = await sql`SELECT count(*)::int AS n FROM events`;
        assert.equal(n, 0);
      });
    } finally {
      await server.close();
    }
  });
}
