/** Operators split wrong groups and join listings by hand; their decisions outlast re-pushes. */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestApp, type TestServer } from "../../dev-support/test-server.ts";
import { get, postEvents } from "../ingest/support/http.ts";
import { untilGrouped } from "../../dev-support/grouping.ts";

/** Pushes a batch and waits until detection has grouped it (it runs after the answer). */
async function pushed(server: TestServer, key: string, body: unknown) {
  const reply = await postEvents(server.url, key, body);
  await untilGrouped(server.service.deps.db.sql);
  return reply;
}

const conference = {
  external_id: "rustfest-2031",
  platform: "other",
  source_url: "https://rustfest.example.org/",
  title: "RustFest Zürich",
  starts_at: "2031-06-10T09:00:00+02:00",
  city: "Zürich",
  country: "Switzerland",
};
const sameOnLuma = {
  ...conference,
  external_id: "luma-rf",
  platform: "luma",
  source_url: "https://lu.ma/rustfest",
};
const workshopDay = {
  external_id: "rust-workshops",
  platform: "meetup",
  source_url: "https://www.meetup.com/rust-zh/events/1/",
  title: "Rust workshops before RustFest",
  starts_at: "2031-06-09T09:00:00+02:00",
  city: "Zurich",
  country: "CH",
};

// deno-lint-ignore no-explicit-any
async function every(server: TestServer): Promise<any[]> {
  const reply = await get(server.url, "/api/v1/events?from=2031-01-01&collapse=false&limit=100");
  return reply.body.data;
}

async function decide(server: TestServer, o: { id: string; other: string; same: boolean }) {
  return await server.fetch(`/api/v1/admin/events/${o.id}/${o.same ? "same-as" : "not-same-as"}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${server.adminKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ other_id: o.other }),
  });
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] an operator's split outlasts a re-push, and a join groups what detection missed`, async () => {
    const server = await startTestApp(kind);
    try {
      const alice = await createApiKey(server, { contributor: "alice" });
      const bob = await createApiKey(server, { contributor: "bob" });
      await pushed(server, alice.key, { events: [conference] });
      await pushed(server, bob.key, { events: [sameOnLuma, workshopDay] });
      const before = await every(server);
      const [a, b, w] = ["rustfest-2031", "luma-rf", "rust-workshops"]
        .map((x) => before.find((e) => e.external_id === x));
      assert.equal(a.duplicates.length, 1, "detection grouped the two listings");
      assert.equal(w.duplicates.length, 0);

      const split = await decide(server, { id: a.id, other: b.id, same: false });
      assert.equal(split.status, 200);
      assert.deepEqual((await split.json()).data.duplicates, []);
      // Bob re-pushes his listing, changed: detection runs again, the split holds.
      await pushed(server, bob.key, {
        events: [{ ...sameOnLuma, description: "Now with a description." }],
      });
      const shown = await get(server.url, "/api/v1/events?from=2031-01-01&limit=100");
      assert.equal(shown.body.data.length, 3);

      const joined = await decide(server, { id: w.id, other: a.id, same: true });
      assert.equal(joined.status, 200);
      assert.deepEqual((await joined.json()).data.duplicates.map((d: { id: string }) => d.id), [
        a.id,
      ]);
      assert.equal((await get(server.url, "/api/v1/events?from=2031-01-01")).body.data.length, 2);

      // Both decisions are in the audit log, newest first, with the pair they named.
      const audit = await server.fetch("/api/v1/admin/audit", {
        headers: { Authorization: `Bearer ${server.adminKey}` },
      });
      assert.equal(audit.status, 200);
      const decisions = (await audit.json()).data
        .filter((d: { action: string }) => d.action === "split" || d.action === "join")
        .map((
          d: { action: string; event_id: string; details: { other_event_id: string } },
        ) => [d.action, d.event_id, d.details.other_event_id]);
      assert.deepEqual(decisions, [["join", w.id, a.id], ["split", a.id, b.id]]);
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] operator decisions need the admin scope and two real, different events`, async () => {
    const server = await startTestApp(kind);
    try {
      const alice = await createApiKey(server, { contributor: "alice" });
      await pushed(server, alice.key, { events: [conference] });
      const [a] = await every(server);
      const byContributor = await server.fetch(`/api/v1/admin/events/${a.id}/same-as`, {
        method: "POST",
        headers: { Authorization: `Bearer ${alice.key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ other_id: a.id }),
      });
      assert.equal(byContributor.status, 403);
      await byContributor.body?.cancel();
      const self = await decide(server, { id: a.id, other: a.id, same: true });
      assert.equal(self.status, 400);
      assert.match(JSON.stringify(await self.json()), /another listing/);
      const missing = await decide(server, { id: a.id, other: crypto.randomUUID(), same: true });
      assert.equal(missing.status, 404);
      await missing.body?.cancel();
    } finally {
      await server.close();
    }
  });
}
