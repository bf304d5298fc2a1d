/**
 * What a saved search is told of, through a real webhook receiver on loopback: a new matching
 * event once, a change of start or place once, a removal once, a second listing of the same
 * real-world event never, an untrusted key's events only once it is trusted; each message signed
 * per Standard Webhooks and verified with the reference `standardwebhooks` package.
 */
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { alertSettings, call, eventually, type Json, startReceiver } from "./support.ts";

/** A Rust meetup in Berlin, as one contributor lists it. */
const RUST_BERLIN = {
  external_id: "rust-berlin-1",
  platform: "meetup",
  source_url: "https://www.meetup.com/rust-berlin/events/1/",
  title: "Rust Berlin: async traits in practice",
  starts_at: "2031-03-05T18:00:00Z",
  city: "Berlin",
  country: "Germany",
};

for (const kind of testBackends()) {
  Deno.test(`[${kind}] each trigger tells a saved search once, signed`, async (t) => {
    const receiver = startReceiver();
    const server = await startTestApp(kind, {
      alerts: alertSettings({ webhooksAllowPrivate: true, webhookRetrySeconds: [0] }),
      alertWorker: { pollMs: 100 },
      embeddingWorker: "external",
    });
    const admin = (path: string) => call(server, { method: "POST", path, key: server.adminKey });
    try {
      const owner = await createApiKey(server, { contributor: "ann", scopes: ["searches:write"] });
      const meetup = await createApiKey(server, { contributor: "meetup-scraper" });
      const lists = await createApiKey(server, { contributor: "conference-lists" });
      const newcomer = await createApiKey(server, { contributor: "newcomer" });
      await admin(`/api/v1/admin/keys/${meetup.id}/trust`);
      await admin(`/api/v1/admin/keys/${lists.id}/trust`);
      const saved = await call(server, {
        method: "POST",
        path: "/api/v1/me/searches",
        key: owner.key,
        body: {
          name: "Rust in Berlin",
          q: "rust",
          filters: { city: "berlin" },
          webhook_url: receiver.url,
        },
      });
      assert.equal(saved.status, 201, JSON.stringify(saved.body));
      const secret: string = saved.body.data.webhook_secret;
      assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
      const verified = () =>
        receiver.received.map((r) => new Webhook(secret).verify(r.body, r.headers) as Json);
      /** Waits for `count` messages in all, then a moment more to see that no other comes. */
      const messages = async (count: number) => {
        await eventually(`${count} messages arrived`, () => receiver.received.length >= count);
        await new Promise((r) => setTimeout(r, 400));
        assert.equal(receiver.received.length, count, "no message beyond those expected");
        return verified();
      };
      // Matching runs after the batch's duplicate detection, after the push answers.
      const push = async (key: string, events: unknown[]) => {
        assert.equal((await postBatch(server.url, key, { events })).status, 200);
        await server.service.deps.duplicates.settled();
        await server.service.deps.alerts.matched();
      };
      let eventId = "";

      await t.step(
        "a new matching event is told once; one that does not match is not",
        async () => {
          await push(meetup.key, [
            RUST_BERLIN,
            { ...RUST_BERLIN, external_id: "py-1", title: "Python Berlin evening" },
            { ...RUST_BERLIN, external_id: "rust-paris", title: "Rust Paris", city: "Paris" },
          ]);
          const [message] = await messages(1);
          assert.equal(message.type, "event.new");
          assert.equal(message.data.saved_search.id, saved.body.data.id);
          assert.equal(message.data.event.external_id, "rust-berlin-1");
          assert.equal(message.data.event.title, RUST_BERLIN.title);
          eventId = message.data.event.id;
          assert.match(receiver.received[0].headers["webhook-id"], /^msg_[0-9a-f-]{36}$/);
        },
      );

      await t.step("re-sending it, or editing its description, tells nothing", async () => {
        await push(meetup.key, [RUST_BERLIN]);
        await push(meetup.key, [{ ...RUST_BERLIN, description: "Bring a laptop." }]);
        await messages(1);
      });

      await t.step("a second listing of the same real-world event tells nothing", async () => {
        await push(lists.key, [{
          ...RUST_BERLIN,
          external_id: "rb-2031-03",
          platform: "other",
          source_url: "https://rust-berlin.example.org/2031/03",
        }]);
        const listed = await call(server, {
          method: "GET",
          path: `/api/v1/events/${eventId}`,
          key: null,
        });
        assert.equal(listed.body.data.duplicates.length, 1, "the two listings are one event");
        await messages(1);
      });

      await t.step("a new start is told once as a change", async () => {
        await push(meetup.key, [{ ...RUST_BERLIN, starts_at: "2031-03-12T18:00:00Z" }]);
        const all = await messages(2);
        assert.equal(all[1].type, "event.changed");
        assert.equal(all[1].data.event.starts_at, "2031-03-12T18:00:00.000Z");
        await push(meetup.key, [{ ...RUST_BERLIN, starts_at: "2031-03-12T18:00:00Z" }]);
        await messages(2);
      });

      await t.step("the private feeds list what it told of, until they are revoked", async () => {
        const ics = await server.fetch(saved.body.data.feed_ics_url);
        assert.equal(ics.status, 200);
        assert.match(ics.headers.get("Content-Type")!, /^text\/calendar/);
        const calendar = await ics.text();
        assert.ok(calendar.includes("SUMMARY:Rust Berlin: async traits in practice"));
        assert.ok(!calendar.includes("Python"), "only what it told of");
        const atom = await server.fetch(saved.body.data.feed_atom_url);
        assert.equal(atom.status, 200);
        assert.ok((await atom.text()).includes('<title type="text">Rust Berlin'));
        const revoked = await call(server, {
          method: "PATCH",
          path: `/api/v1/me/searches/${saved.body.data.id}`,
          key: owner.key,
          body: { revoke_feeds: true },
        });
        const old = await server.fetch(saved.body.data.feed_ics_url);
        assert.equal(old.status, 404);
        await old.body?.cancel();
        const fresh = await server.fetch(revoked.body.data.feed_ics_url);
        assert.equal(fresh.status, 200);
        await fresh.body?.cancel();
      });

      await t.step("an untrusted key's event is silent until the key is trusted", async () => {
        await push(newcomer.key, [{
          ...RUST_BERLIN,
          external_id: "nc-1",
          platform: "manual",
          source_url: "https://newcomer.example.org/rust-workshop",
          title: "Rust workshop for beginners",
          starts_at: "2031-05-20T09:00:00Z",
        }]);
        await messages(2);
        await admin(`/api/v1/admin/keys/${newcomer.id}/trust`);
        const all = await messages(3);
        assert.equal(all[2].type, "event.new");
        assert.equal(all[2].data.event.external_id, "nc-1");
      });

      await t.step("a removal is told once, with what the event was", async () => {
        const del = await call(server, {
          method: "DELETE",
          path: `/api/v1/events/${eventId}`,
          key: meetup.key,
        });
        assert.equal(del.status, 204);
        const all = await messages(4);
        assert.equal(all[3].type, "event.removed");
        assert.equal(all[3].data.event.id, eventId);
        assert.equal(all[3].data.event.title, RUST_BERLIN.title);
      });

      await t.step(
        "every message has its own id, and the search lists its deliveries",
        async () => {
          const ids = receiver.received.map((r) => r.headers["webhook-id"]);
          assert.equal(new Set(ids).size, ids.length);
          const one = await call(server, {
            method: "GET",
            path: `/api/v1/me/searches/${saved.body.data.id}`,
            key: owner.key,
          });
          assert.deepEqual(
            one.body.data.deliveries.map((d: Json) => [d.kind, d.status]),
            [["removed", "delivered"], ["new", "delivered"], ["changed", "delivered"], [
              "new",
              "delivered",
            ]],
          );
        },
      );
    } finally {
      await server.close();
      await receiver.close();
    }
  });
}
