/**
 * The dashboard without a browser: keys made there work with the API, only `events:write` can be
 * chosen, a contributor sees and changes only their own keys and events (anything else is 404),
 * revoked and expired keys get 401, deleted events leave the site.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { FormClient, signUp } from "./support/form-client.ts";

const PASSWORD = "correct horse battery staple";

/** Generates a key on the dashboard and returns it with its id. */
async function generateKey(client: FormClient, fields: Record<string, string>) {
  await client.get("/dashboard");
  const page = await client.post("/dashboard/keys", fields);
  assert.equal(page.status, 200, page.text);
  assert.equal(page.headers.get("cache-control"), "no-store");
  const key = /<code id="new-key" class="secret">(evk_[A-Za-z0-9]+)<\/code>/.exec(page.text)![1];
  const dashboard = await client.get("/dashboard");
  const id = new RegExp(`/dashboard/keys/([0-9a-f-]{36})/revoke`).exec(dashboard.text)?.[1];
  return { key, id: id!, page: page.text };
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the dashboard makes keys, and keeps each contributor to their own`, async (t) => {
    const server = await startTestServer(kind);
    const sql = server.service.deps.db.sql;
    try {
      const ada = new FormClient(server.url);
      const bob = new FormClient(server.url);
      await signUp(ada, "ada@example.org", PASSWORD);
      await signUp(bob, "bob@example.org", PASSWORD);
      let adaKey = { key: "", id: "", page: "" };
      let adaEventId = "";

      await t.step("a key made on the dashboard is shown once and pushes events", async () => {
        adaKey = await generateKey(ada, {
          name: "berlin feed",
          scopes: "events:write",
          lifetime: "30",
        });
        assert.match(adaKey.page, /curl -X POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/events/);
        assert.ok(adaKey.page.includes(`EVENTS_API_KEY=${adaKey.key}`));
        const pushed = await postBatch(server.url, adaKey.key, { events: [sampleEvent(1)] });
        assert.equal(pushed.status, 200);
        const dashboard = await ada.get("/dashboard");
        assert.ok(!dashboard.text.includes(adaKey.key), "never shown again");
        assert.match(dashboard.text, /Pending review/);
        assert.match(dashboard.text, /<td>1<\/td>/, "events count");
        assert.match(dashboard.text, /<code>other\/evt-1<\/code>/);
        const [row] = await sql`SELECT k.expires_at FROM events e
          JOIN api_keys k ON k.id = e.last_key_id WHERE e.external_id = 'evt-1'`;
        adaEventId = (await sql`SELECT id FROM events WHERE external_id = 'evt-1'`)[0].id;
        const days = (row.expires_at.getTime() - Date.now()) / 86_400_000;
        assert.ok(days > 29.9 && days <= 30, `expires in 30 days, not ${days}`);
      });

      await t.step("only events:write can be chosen, never admin", async () => {
        const before = (await sql`SELECT count(*)::int AS n FROM api_keys`)[0].n;
        await ada.get("/dashboard");
        for (const scopes of ["admin", ["events:write", "admin"]]) {
          const body: Record<string, string> = { name: "sneaky", lifetime: "never" };
          const answer = await ada.post("/dashboard/keys", body, {
            extraBody: Array.isArray(scopes)
              ? scopes.map((s) => ["scopes", s])
              : [["scopes", scopes]],
          });
          assert.equal(answer.status, 400);
          assert.match(answer.text, /may only hold events:write/);
        }
        const after = (await sql`SELECT count(*)::int AS n FROM api_keys`)[0].n;
        assert.equal(after, before);
      });

      await t.step("another contributor's key and events are 404", async () => {
        await bob.get("/dashboard");
        const paths = [
          `/dashboard/keys/${adaKey.id}/revoke`,
          `/dashboard/events/${adaEventId}/delete`,
        ];
        for (const path of paths) {
          assert.equal((await bob.get(path)).status, 404, `GET ${path}`);
          await bob.get("/dashboard");
          assert.equal((await bob.post(path, {})).status, 404, `POST ${path}`);
        }
        const bobsDashboard = await bob.get("/dashboard");
        assert.ok(!bobsDashboard.text.includes("berlin feed"));
        assert.ok(!bobsDashboard.text.includes("evt-1"));
        const stillWorks = await postBatch(server.url, adaKey.key, { events: [sampleEvent(1)] });
        assert.equal(stillWorks.status, 200);
        assert.equal((await bob.get(`/events/${adaEventId}`)).status, 200, "public page stays");
      });

      await t.step("a revoked key gets 401 at once", async () => {
        const confirm = await ada.get(`/dashboard/keys/${adaKey.id}/revoke`);
        assert.match(confirm.text, /Revoke the key “berlin feed”\?/);
        const revoked = await ada.post(`/dashboard/keys/${adaKey.id}/revoke`, {});
        assert.equal(revoked.status, 303);
        const refused = await postBatch(server.url, adaKey.key, { events: [sampleEvent(2)] });
        assert.equal(refused.status, 401);
        assert.match((await ada.get("/dashboard")).text, /Revoked/);
      });

      await t.step("an expired key gets 401 saying it expired", async () => {
        const fresh = await generateKey(ada, {
          name: "short-lived",
          scopes: "events:write",
          lifetime: "90",
        });
        assert.equal(
          (await postBatch(server.url, fresh.key, { events: [sampleEvent(3)] })).status,
          200,
        );
        await sql`UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE id = ${fresh.id}`;
        const refused = await postBatch(server.url, fresh.key, { events: [sampleEvent(3)] });
        assert.equal(refused.status, 401);
        assert.match(refused.body.message, /expired at .*: generate a new key in the dashboard/);
        assert.match((await ada.get("/dashboard")).text, /Expired/);
      });

      await t.step("deleting events takes them off the site at once", async () => {
        const confirm = await ada.get(`/dashboard/events/${adaEventId}/delete`);
        assert.equal(confirm.status, 200);
        const deleted = await ada.post(`/dashboard/events/${adaEventId}/delete`, {});
        assert.equal(deleted.status, 303);
        assert.equal((await ada.get(`/events/${adaEventId}`)).status, 404);
        const api = await (await fetch(`${server.url}/api/v1/events?external_id=evt-1`)).json();
        assert.deepEqual(api.data, []);
        await ada.get("/dashboard/events/delete-all");
        assert.equal((await ada.post("/dashboard/events/delete-all", {})).status, 303);
        const [{ n }] = await sql`SELECT count(*)::int AS n FROM events e
          JOIN accounts a ON a.contributor_id = e.contributor_id WHERE a.email = 'ada@example.org'`;
        assert.equal(n, 0);
      });

      await t.step("the dashboard is only for the signed in", async () => {
        const stranger = new FormClient(server.url);
        for (const path of ["/dashboard", `/dashboard/keys/${adaKey.id}/revoke`]) {
          const answer = await stranger.get(path);
          assert.equal(answer.status, 303);
          assert.equal(answer.location, "/sign-in");
        }
      });
    } finally {
      await server.close();
    }
  });
}
