/**
 * Duplicates end to end: two contributors list the same conference, the listing shows it once
 * with `duplicates`, and groups follow edits and deletes without anyone's event changing hands.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestApp, type TestServer } from "../../dev-support/test-server.ts";
import { untilGrouped } from "../../dev-support/grouping.ts";
import { get, postEvents, send } from "../ingest/support/http.ts";

/** The same conference as two lists word it. */
const alicesCopy = {
  external_id: "pycon-de-2031",
  platform: "other",
  source_url: "https://2031.pycon.de/?utm_source=list",
  title: "PyCon DE & PyData 2031",
  starts_at: "2031-04-22T09:00:00+02:00",
  ends_at: "2031-04-24T17:00:00+02:00",
  city: "Darmstadt",
  country: "Germany",
};
const bobsCopy = {
  external_id: "evt-991",
  platform: "meetup",
  source_url: "https://www.meetup.com/pydata-darmstadt/events/991/",
  title: "PyCon DE and PyData",
  starts_at: "2031-04-22T07:00:00Z",
  city: "Darmstadt",
  country: "DE",
  description: "Three days of Python and data.",
};
/** Another conference the same week in the same city: never grouped. */
const otherConference = {
  external_id: "djangocon-2031",
  platform: "other",
  source_url: "https://djangocon.example.org/",
  title: "DjangoCon Darmstadt",
  starts_at: "2031-04-23T09:00:00Z",
  city: "Darmstadt",
  country: "Germany",
};

async function twoContributors(kind: "pglite" | "postgres") {
  const server = await startTestApp(kind);
  const alice = await createApiKey(server, { contributor: "alice", rate_limit_per_minute: 10_000 });
  const bob = await createApiKey(server, { contributor: "bob", rate_limit_per_minute: 10_000 });
  return { server, alice: alice.key, bob: bob.key };
}

// deno-lint-ignore no-explicit-any
async function listing(server: TestServer, query = ""): Promise<any[]> {
  const reply = await get(server.url, `/api/v1/events?from=2031-01-01&limit=100${query}`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.data;
}

async function push(server: TestServer, key: string, events: unknown[]): Promise<string[]> {
  const reply = await postEvents(server.url, key, { events });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.deepEqual(reply.body.data.errors, []);
  // Grouped after the push's answer, in the background.
  await untilGrouped(server.service.deps.db.sql);
  const mine = await send(`${server.url}/api/v1/me/events?limit=100`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  // deno-lint-ignore no-explicit-any
  return mine.body.data.map((e: any) => e.id);
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] two contributors' listings of one conference show once, with duplicates`, async () => {
    const { server, alice, bob } = await twoContributors(kind);
    try {
      await push(server, alice, [alicesCopy, otherConference]);
      await push(server, bob, [bobsCopy]);
      const shown = await listing(server);
      assert.equal(shown.length, 2, JSON.stringify(shown.map((e) => e.title)));
      const pycon = shown.find((e) => e.title.startsWith("PyCon"));
      assert.equal(pycon.duplicates.length, 1);
      assert.equal(shown.find((e) => e.external_id === "djangocon-2031").duplicates.length, 0);

      const every = await listing(server, "&collapse=false");
      assert.equal(every.length, 3);
      const [a, b] = ["pycon-de-2031", "evt-991"].map((x) =>
        every.find((e) => e.external_id === x)
      );
      assert.deepEqual(a.duplicates, [{
        id: b.id,
        platform: "meetup",
        source_url: b.source_url,
        title: b.title,
      }]);
      assert.equal(b.duplicates[0].id, a.id);
      // One read of either copy names the other.
      const one = await get(server.url, `/api/v1/events/${b.id}`);
      assert.equal(one.body.data.duplicates[0].id, a.id);
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] an edit moving one copy to another day splits the group; a delete leaves the other`, async () => {
    const { server, alice, bob } = await twoContributors(kind);
    try {
      await push(server, alice, [alicesCopy]);
      await push(server, bob, [bobsCopy]);
      assert.equal((await listing(server)).length, 1);
      await push(server, bob, [{ ...bobsCopy, starts_at: "2031-05-22T07:00:00Z" }]);
      const split = await listing(server);
      assert.equal(split.length, 2);
      assert.ok(split.every((e) => e.duplicates.length === 0));
      // Back on the day: grouped again; then Alice deletes hers and Bob's is shown alone.
      await push(server, bob, [bobsCopy]);
      const [grouped] = await listing(server);
      assert.equal(grouped.duplicates.length, 1);
      const alicesId = (await listing(server, "&collapse=false"))
        .find((e) => e.external_id === "pycon-de-2031").id;
      const gone = await server.fetch(`/api/v1/events/${alicesId}`, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${alice}` },
      });
      assert.equal(gone.status, 204);
      const left = await listing(server);
      assert.deepEqual(left.map((e) => [e.external_id, e.duplicates.length]), [["evt-991", 0]]);
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] one contributor's listings of a conference on two platforms in one batch are grouped`, async () => {
    const { server, alice } = await twoContributors(kind);
    try {
      await push(server, alice, [alicesCopy, { ...bobsCopy, external_id: "alice-on-meetup" }]);
      const [shown] = await listing(server);
      assert.equal(shown.duplicates.length, 1);
      // A re-push changing no matched field keeps the group: the same, and a new description,
      // which makes the listing that had none the fuller one and so the canonical one.
      const copies = [alicesCopy, { ...bobsCopy, external_id: "alice-on-meetup" }];
      await push(server, alice, copies);
      assert.equal((await listing(server)).length, 1);
      const other = copies.find((c) => c.external_id !== shown.external_id)!;
      await push(server, alice, [{
        ...other,
        description: "Now with a description.",
        venue_name: "darmstadtium",
        organiser_name: "Python Software Verband",
        timezone: "Europe/Berlin",
      }]);
      const [again] = await listing(server);
      assert.equal(again.duplicates.length, 1);
      assert.equal(again.external_id, other.external_id);
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] a group never lets another contributor change or delete your event`, async () => {
    const { server, alice, bob } = await twoContributors(kind);
    try {
      await push(server, alice, [alicesCopy]);
      await push(server, bob, [bobsCopy]);
      const every = await listing(server, "&collapse=false");
      const alices = every.find((e) => e.external_id === "pycon-de-2031");
      // Bob names Alice's event by its id (from his duplicates) and by its pair: refused.
      const del = await send(`${server.url}/api/v1/events/${alices.id}`, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${bob}` },
      });
      assert.equal(del.status, 404);
      const over = await postEvents(server.url, bob, {
        events: [{ ...alicesCopy, title: "Changed by Bob" }],
      });
      assert.equal(over.body.data.errors[0].code, "owned_by_another_contributor");
      const after = await get(server.url, `/api/v1/events/${alices.id}`);
      assert.equal(after.body.data.title, alicesCopy.title);
      assert.equal(after.body.data.updated_at, alices.updated_at);
    } finally {
      await server.close();
    }
  });
}
