/**
 * Federation follows trust decisions and operators' blocks: trusting a key sends its upcoming
 * events, untrusting withdraws them; outboxes and followers collections count what happened;
 * unsigned inbox requests get 401; a blocked domain's get 403 and it receives nothing; Undo
 * removes a follower.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { admin, type Json } from "../search/support.ts";
import { activityJson, eventually, withPeer } from "./support.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] trusting a key sends its upcoming events, untrusting deletes them`, async () => {
    await withPeer(kind, async (server, peer) => {
      const host = new URL(server.url).host;
      const events = await peer.lookup("events", host);
      await peer.follow(events);
      await peer.waitFor((r) => r.type === "Accept");

      const key = await createApiKey(server, { contributor: "meetup-org" });
      await postBatch(server.url, key.key, {
        events: [
          sampleEvent(1, { title: "Kubernetes day", topics: ["Kubernetes"] }),
          sampleEvent(2, { title: "Last year's summit", starts_at: "2020-03-01T09:00:00Z" }),
        ],
      });
      assert.equal((await admin(server, "POST", `/api/v1/admin/keys/${key.id}/trust`)).status, 200);
      const create = await peer.waitFor((r) => r.type === "Create");
      assert.equal((create.json.object as Json).name, "Kubernetes day");

      // The outbox, newest first, and the followers collection.
      await eventually("the Create in the outbox", async () => {
        const outbox = await (await activityJson(server, "/ap/actors/events/outbox")).json();
        return outbox.totalItems === 1;
      });
      const outbox = await (await activityJson(server, "/ap/actors/events/outbox")).json();
      const first = await (await fetch(outbox.first, {
        headers: { Accept: "application/activity+json" },
      })).json();
      assert.deepEqual(first.orderedItems.map((a: Json) => a.type), ["Create"]);
      const followers = await (await activityJson(server, "/ap/actors/events/followers")).json();
      assert.equal(followers.totalItems, 1);
      const page = await (await server.fetch("/fediverse/events")).text();
      assert.match(page, /1 follower\b/);
      assert.match(page, /Kubernetes day/);
      assert.match(page, new RegExp(`@events@${host.replace(".", "\\.")}`));

      assert.equal(
        (await admin(server, "POST", `/api/v1/admin/keys/${key.id}/untrust`)).status,
        200,
      );
      const gone = await peer.waitFor((r) => r.type === "Delete");
      assert.equal((gone.json.object as Json).id, (create.json.object as Json).id);
      assert.ok(
        !peer.received.some((r) => (r.json.object as Json)?.name === "Last year's summit"),
        "a past event is not sent when its key is trusted",
      );
    });
  });

  Deno.test(`[${kind}] unsigned inbox requests get 401, a blocked domain 403 and no deliveries, and Undo unfollows`, async () => {
    await withPeer(kind, async (server, peer) => {
      const host = new URL(server.url).host;
      const peerHost = new URL(peer.url).host;
      const unsigned = await fetch(`${server.url}/ap/inbox`, {
        method: "POST",
        headers: { "Content-Type": "application/activity+json" },
        body: JSON.stringify({
          "@context": "https://www.w3.org/ns/activitystreams",
          id: `${peer.url}/follows/1`,
          type: "Follow",
          actor: peer.actorId.href,
          object: `${server.url}/ap/actors/events`,
        }),
      });
      assert.equal(unsigned.status, 401);
      await unsigned.body?.cancel();

      const bad = await admin(server, "POST", "/api/v1/admin/federation/blocks", {
        domain: "https://spam.example/",
      });
      assert.equal(bad.status, 400);
      assert.match(JSON.stringify(bad.body), /host name/);

      const blocked = await admin(server, "POST", "/api/v1/admin/federation/blocks", {
        domain: peerHost,
      });
      assert.equal(blocked.status, 201);
      assert.equal(blocked.body.data.domain, peerHost);
      const list = await admin(server, "GET", "/api/v1/admin/federation/blocks");
      assert.deepEqual(list.body.data.map((b: Json) => b.domain), [peerHost]);
      const audit = await admin(server, "GET", "/api/v1/admin/audit");
      assert.equal(audit.body.data[0].action, "block_domain");
      assert.equal(audit.body.data[0].details.domain, peerHost);

      const events = await peer.lookup("events", host);
      await assert.rejects(() => peer.follow(events), /403/);

      const lifted = await server.fetch(
        `/api/v1/admin/federation/blocks/${encodeURIComponent(peerHost)}`,
        { method: "DELETE", headers: { Authorization: `Bearer ${server.adminKey}` } },
      );
      assert.equal(lifted.status, 204);
      const again = await server.fetch(
        `/api/v1/admin/federation/blocks/${encodeURIComponent(peerHost)}`,
        { method: "DELETE", headers: { Authorization: `Bearer ${server.adminKey}` } },
      );
      assert.equal(again.status, 404);
      await again.body?.cancel();

      await peer.follow(events);
      await peer.waitFor((r) => r.type === "Accept");

      // A follower on a blocked domain receives nothing while the block holds.
      const key = await createApiKey(server, { contributor: "meetup-org" });
      assert.equal((await admin(server, "POST", `/api/v1/admin/keys/${key.id}/trust`)).status, 200);
      const block = { domain: peerHost };
      assert.equal(
        (await admin(server, "POST", "/api/v1/admin/federation/blocks", block)).status,
        201,
      );
      await postBatch(server.url, key.key, {
        events: [sampleEvent(7, { title: "Sent while blocked" })],
      });
      await eventually("the Create in the outbox", async () => {
        const outbox = await (await activityJson(server, "/ap/actors/events/outbox")).json();
        return outbox.totalItems === 1;
      });
      await server.service.deps.federation!.publisher.idle();
      const unblocked = await server.fetch(
        `/api/v1/admin/federation/blocks/${encodeURIComponent(peerHost)}`,
        { method: "DELETE", headers: { Authorization: `Bearer ${server.adminKey}` } },
      );
      assert.equal(unblocked.status, 204);
      await postBatch(server.url, key.key, {
        events: [sampleEvent(8, { title: "Sent after the block" })],
      });
      const create = await peer.waitFor((r) => r.type === "Create");
      assert.equal((create.json.object as Json).name, "Sent after the block");
      assert.equal(peer.received.filter((r) => r.type === "Create").length, 1);

      const count = async () =>
        (await (await activityJson(server, "/ap/actors/events/followers")).json()).totalItems;
      assert.equal(await count(), 1);
      await peer.unfollow(events);
      await eventually("the follower gone", async () => await count() === 0);
    });
  });
}
