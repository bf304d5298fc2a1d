/**
 * Federation end to end, against a second ActivityPub server on another loopback port: WebFinger,
 * a signed Follow answered with Accept, a trusted key's events as Create, Update and Delete, an
 * untrusted key's never, unsigned inbox requests refused, and a blocked domain refused.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch } from "../../dev-support/test-server.ts";
import { withPeer } from "./support.ts";
import { sampleEvent } from "../support/events.ts";
import { admin } from "../search/support.ts";

const TZ = "https://joinmobilizon.org/ns#timezone";

// deno-lint-ignore no-explicit-any
type Json = any;

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a fediverse server follows the calendar and receives a trusted key's events`, async () => {
    await withPeer(kind, async (server, peer) => {
      const host = new URL(server.url).host;
      const events = await peer.lookup("events", host);
      assert.equal(events.href, `${server.url}/ap/actors/events`);

      await peer.follow(events);
      await peer.waitFor((r) => r.type === "Accept");

      const trusted = await createApiKey(server, { contributor: "trusted-org" });
      assert.equal(
        (await admin(server, "POST", `/api/v1/admin/keys/${trusted.id}/trust`)).status,
        200,
      );
      const untrusted = await createApiKey(server, { contributor: "new-org" });

      const rustMeetup = sampleEvent(1, {
        title: "Rust Berlin meetup",
        description: "Talks about async Rust.",
        starts_at: "2030-06-01T19:00:00",
        ends_at: "2030-06-01T22:00:00",
        timezone: "Europe/Berlin",
        venue_name: "c-base",
        city: "Berlin",
        country: "DE",
        latitude: 52.513,
        longitude: 13.42,
        topics: ["Rust"],
        tags: ["async"],
        cfp_url: "https://example.org/rust-berlin/cfp",
        cfp_closes_at: "2030-05-01",
      });
      const pushed = await postBatch(server.url, trusted.key, { events: [rustMeetup] });
      assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
      await postBatch(server.url, untrusted.key, {
        events: [sampleEvent(2, { title: "Unreviewed crypto seminar", topics: ["Rust"] })],
      });

      const create = await peer.waitFor((r) => r.type === "Create");
      const object: Json = create.json.object;
      assert.equal(create.json.actor, `${server.url}/ap/actors/events`);
      assert.equal(object.type, "Event");
      assert.equal(object.name, "Rust Berlin meetup");
      assert.equal(object.content, "Talks about async Rust.");
      assert.equal(object.startTime, "2030-06-01T17:00:00Z");
      assert.equal(object.endTime, "2030-06-01T20:00:00Z");
      assert.equal(object[TZ], "Europe/Berlin");
      assert.match(object.summary, /Saturday, 1 June 2030, 19:00 \(Europe\/Berlin\)/);
      assert.match(object.summary, /Berlin, DE/);
      // A bare deadline closes at the end of that day Anywhere on Earth: 11:59 UTC the day after.
      assert.match(object.summary, /Call for papers closes 2030-05-02 11:59 UTC/);
      assert.equal(object.location.type, "Place");
      assert.equal(object.location.latitude, 52.513);
      assert.equal(object.location.longitude, 13.42);
      // schema.org's address; the activity's context may shorten its IRI to schema:address.
      const address = object.location["schema:address"] ??
        object.location["http://schema.org/address"];
      assert.equal(address, "c-base, Berlin, DE");
      const listed = await server.fetch("/api/v1/events?limit=10");
      const stored = (await listed.json()).data.find((e: Json) => e.title === "Rust Berlin meetup");
      assert.equal(object.url, `${server.url}/events/${stored.id}`);
      const tags = [object.tag].flat().map((t: Json) => `${t.type} ${t.name}`).sort();
      assert.deepEqual(tags, ["Hashtag #Rust", "Hashtag #async"]);

      // The topic and city actors exist now, with WebFinger and a public key.
      for (const handle of ["rust", "city-berlin"]) {
        const actor = await peer.lookup(handle, host);
        const doc = await (await fetch(actor, {
          headers: { Accept: "application/activity+json" },
        })).json();
        assert.equal(doc.preferredUsername, handle);
        assert.match(doc.publicKey.publicKeyPem, /BEGIN PUBLIC KEY/);
      }

      // A material change is an Update of the same object.
      await postBatch(server.url, trusted.key, {
        events: [{ ...rustMeetup, title: "Rust Berlin meetup (moved)" }],
      });
      const update = await peer.waitFor((r) => r.type === "Update");
      assert.equal((update.json.object as Json).id, object.id);
      assert.equal((update.json.object as Json).name, "Rust Berlin meetup (moved)");

      // Deleting the event deletes the object, with a Tombstone.
      const deleted = await server.fetch(`/api/v1/events/${stored.id}`, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${trusted.key}` },
      });
      assert.equal(deleted.status, 204);
      const gone = await peer.waitFor((r) => r.type === "Delete");
      assert.equal((gone.json.object as Json).type, "Tombstone");
      assert.equal((gone.json.object as Json).id, object.id);

      const names = peer.received.map((r) => (r.json.object as Json)?.name).filter(Boolean);
      assert.ok(!names.includes("Unreviewed crypto seminar"), names.join(", "));
      // One server, one delivery of each: the shared inbox.
      assert.equal(peer.received.filter((r) => r.type === "Create").length, 1);
      assert.ok(
        peer.received.filter((r) => r.type !== "Accept").every((r) => r.inbox === "/inbox"),
      );
    });
  });
}
