/**
 * An operator's one-action clean-up of a contributor deletes its events as any other delete does:
 * each saved search that told of one is told of its removal, once, with what the event was.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { alertSettings, call, eventually, startReceiver } from "./support.ts";

const MEETUP = {
  external_id: "rust-1",
  platform: "meetup",
  source_url: "https://www.meetup.com/rust-berlin/events/1/",
  title: "Rust Berlin: async traits",
  starts_at: "2031-03-05T18:00:00Z",
  city: "Berlin",
  country: "Germany",
};

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a contributor's clean-up tells saved searches of the removals`, async () => {
    const receiver = startReceiver();
    const server = await startTestApp(kind, {
      alerts: alertSettings({ webhooksAllowPrivate: true, webhookRetrySeconds: [0] }),
      alertWorker: { pollMs: 100 },
      embeddingWorker: "external",
    });
    const admin = (path: string) => call(server, { method: "POST", path, key: server.adminKey });
    try {
      const owner = await createApiKey(server, { contributor: "ann", scopes: ["searches:write"] });
      const pusher = await createApiKey(server, { contributor: "turned-spammer" });
      await admin(`/api/v1/admin/keys/${pusher.id}/trust`);
      const saved = await call(server, {
        method: "POST",
        path: "/api/v1/me/searches",
        key: owner.key,
        body: { name: "Rust", q: "rust", webhook_url: receiver.url },
      });
      assert.equal(saved.status, 201, JSON.stringify(saved.body));
      assert.equal((await postBatch(server.url, pusher.key, { events: [MEETUP] })).status, 200);
      await eventually("the new event is told", () => receiver.received.length === 1);
      const eventId = JSON.parse(receiver.received[0].body).data.event.id;

      const [{ contributor_id: id }] = await server.service.deps.db.sql`
        SELECT contributor_id FROM api_keys WHERE id = ${pusher.id}`;
      const cleaned = await admin(`/api/v1/admin/contributors/${id}/clean-up`);
      assert.equal(cleaned.status, 200, JSON.stringify(cleaned.body));

      await eventually("the removal is told", () => receiver.received.length >= 2);
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(receiver.received.length, 2, "told once");
      const removal = JSON.parse(receiver.received[1].body);
      assert.equal(removal.type, "event.removed");
      assert.deepEqual(removal.data.event, {
        id: eventId,
        title: MEETUP.title,
        source_url: MEETUP.source_url,
        starts_at: "2031-03-05T18:00:00Z",
      });
    } finally {
      await server.close();
      await receiver.close();
    }
  });
}
