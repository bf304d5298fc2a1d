/** A duplicate group federates once, as the listing it shows; a new shown listing updates it. */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch } from "../../dev-support/test-server.ts";
import { admin, type Json } from "../search/support.ts";
import { withPeer } from "./support.ts";

/** One conference as two lists word it; the second is more complete, so the group shows it. */
const sparse = {
  external_id: "pycon-de-2031",
  platform: "other",
  source_url: "https://2031.pycon.de/?utm_source=list",
  title: "PyCon DE & PyData 2031",
  starts_at: "2031-04-22T09:00:00+02:00",
  ends_at: "2031-04-24T17:00:00+02:00",
  city: "Darmstadt",
  country: "Germany",
};
const complete = {
  external_id: "evt-991",
  platform: "meetup",
  source_url: "https://www.meetup.com/pydata-darmstadt/events/991/",
  title: "PyCon DE and PyData",
  starts_at: "2031-04-22T07:00:00Z",
  city: "Darmstadt",
  country: "DE",
  description: "Three days of Python and data.",
  venue_name: "darmstadtium",
  topics: ["Python"],
};

for (const kind of testBackends()) {
  Deno.test(`[${kind}] two listings of one event federate as one object, updated to the shown one`, async () => {
    await withPeer(kind, async (server, peer) => {
      await peer.follow(await peer.lookup("events", new URL(server.url).host));
      await peer.waitFor((r) => r.type === "Accept");
      const alice = await createApiKey(server, { contributor: "alice" });
      const bob = await createApiKey(server, { contributor: "bob" });
      for (const key of [alice, bob]) {
        assert.equal(
          (await admin(server, "POST", `/api/v1/admin/keys/${key.id}/trust`)).status,
          200,
        );
      }
      await postBatch(server.url, alice.key, { events: [sparse] });
      const create = await peer.waitFor((r) => r.type === "Create");
      const objectId = (create.json.object as Json).id;

      await postBatch(server.url, bob.key, { events: [complete] });
      const update = await peer.waitFor((r) => r.type === "Update");
      const updated = update.json.object as Json;
      assert.equal(updated.id, objectId);
      assert.equal(updated.name, "PyCon DE and PyData");
      const shown = (await (await server.fetch("/api/v1/events?from=2031-01-01")).json()).data;
      assert.equal(shown.length, 1);
      assert.equal(updated.url, `${server.url}/events/${shown[0].id}`);
      assert.equal(peer.received.filter((r) => r.type === "Create").length, 1);
    });
  });
}
