/**
 * One-action clean-up: an operator, through the API or the review queue (after a confirmation
 * page), revokes every key of a contributor, deletes all its events and blocks its account; it
 * leaves no event, no usable key and no sign-in, and the audit log records the counts.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { admin } from "../search/support.ts";
import {
  CONTRIBUTOR_PASSWORD,
  signedInOperator,
  signedUpContributor,
} from "../support/unreviewed.ts";
import { FormClient } from "../web/support/form-client.ts";

/** `n` events numbered from `first`, from the spam host. */
function spam(first: number, n: number) {
  return {
    events: Array.from(
      { length: n },
      (_, i) => sampleEvent(first + i, { source_url: `https://spam.example.net/e/${first + i}` }),
    ),
  };
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a clean-up leaves no event, no usable key and no sign-in`, async (t) => {
    const server = await startTestServer(kind, { operatorEmails: ["op@example.org"] });
    const sql = server.service.deps.db.sql;
    try {
      const honest = await createApiKey(server, { contributor: "honest" });
      await postBatch(server.url, honest.key, { events: [sampleEvent(9000)] });
      const spammer = await signedUpContributor(server.url, {
        email: "spam@example.org",
        keys: 3,
      });
      for (const [i, key] of spammer.keys.entries()) {
        assert.equal((await postBatch(server.url, key.key, spam(i * 100, 100))).status, 200);
      }
      const [{ contributor_id: contributorId }] =
        await sql`SELECT contributor_id FROM api_keys WHERE id = ${spammer.keys[0].id}`;
      const op = await signedInOperator(server, "op@example.org");

      await t.step("the review queue asks first, saying what will happen", async () => {
        const queue = await op.get("/review");
        assert.ok(queue.text.includes(`/review/contributors/${contributorId}/clean-up`));
        const confirm = await op.get(`/review/contributors/${contributorId}/clean-up`);
        assert.equal(confirm.status, 200);
        assert.match(confirm.text, /Clean up spam@example\.org\?/);
        assert.match(confirm.text, /3 active keys will be revoked, 300 events deleted/);
        assert.match(confirm.text, /the account spam@example\.org blocked from signing in/);
        const [{ n }] = await sql`SELECT count(*)::int AS n FROM events
          WHERE contributor_id = ${contributorId}`;
        assert.equal(n, 300, "asking changes nothing");
      });

      await t.step("confirming cleans up in one action", async () => {
        const done = await op.post(`/review/contributors/${contributorId}/clean-up`, {});
        assert.equal(done.status, 303);
        assert.match((await op.get(done.location!)).text, /Cleaned up/);
        const [{ n }] = await sql`SELECT count(*)::int AS n FROM events
          WHERE contributor_id = ${contributorId}`;
        assert.equal(n, 0);
        const listed = await (await fetch(`${server.url}/api/v1/events`)).json();
        assert.deepEqual(listed.data.map((e: { external_id: string }) => e.external_id), [
          "evt-9000",
        ]);
        for (const key of spammer.keys) {
          const refused = await postBatch(server.url, key.key, spam(5000, 1));
          assert.equal(refused.status, 401);
        }
      });

      await t.step("the account is signed out and cannot sign in again", async () => {
        assert.equal((await spammer.client.get("/dashboard")).status, 303, "session ended");
        const again = new FormClient(server.url);
        await again.get("/sign-in");
        const refused = await again.post("/sign-in", {
          email: "spam@example.org",
          password: CONTRIBUTOR_PASSWORD,
        });
        assert.equal(refused.status, 403);
        assert.match(refused.text, /An operator has closed this account/);
        assert.equal((await again.get("/dashboard")).status, 303);
        await again.get("/sign-in");
        const wrong = await again.post("/sign-in", {
          email: "spam@example.org",
          password: "not the password at all",
        });
        assert.match(wrong.text, /Email address or password is wrong/, "the password comes first");
      });

      await t.step("the audit log has the clean-up with its counts", async () => {
        const audit = await admin(server, "GET", "/api/v1/admin/audit");
        const [entry] = audit.body.data;
        assert.equal(entry.action, "clean_up");
        assert.equal(entry.decided_by, "op@example.org");
        assert.equal(entry.contributor_id, contributorId);
        assert.deepEqual(entry.details, {
          keys_revoked: 3,
          events_deleted: 300,
          sessions_ended: 1,
        });
      });
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] the clean-up API answers the counts, and 404 for an unknown contributor`, async () => {
    const server = await startTestServer(kind);
    try {
      const key = await createApiKey(server, { contributor: "bulk" });
      await postBatch(server.url, key.key, spam(1, 40));
      const [{ contributor_id: id }] = await server.service.deps.db.sql`
        SELECT contributor_id FROM api_keys WHERE id = ${key.id}`;
      const first = await admin(server, "POST", `/api/v1/admin/contributors/${id}/clean-up`);
      assert.equal(first.status, 200);
      assert.deepEqual(first.body.data, { keys_revoked: 1, events_deleted: 40, sessions_ended: 0 });
      const twice = await admin(server, "POST", `/api/v1/admin/contributors/${id}/clean-up`);
      assert.deepEqual(twice.body.data, { keys_revoked: 0, events_deleted: 0, sessions_ended: 0 });
      const unknown = await admin(
        server,
        "POST",
        `/api/v1/admin/contributors/${crypto.randomUUID()}/clean-up`,
      );
      assert.equal(unknown.status, 404);
      assert.match(unknown.body.message, /take contributor_id from a key/);
      assert.equal((await postBatch(server.url, key.key, spam(100, 1))).status, 401);
    } finally {
      await server.close();
    }
  });
}
