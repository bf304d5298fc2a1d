/**
 * A call for papers across duplicate listings (docs/api.md#calls-for-papers): a group's shown
 * listing without a CFP shows another member's in listings and search, saying whose; cfp=open
 * keeps the group; each member read by id keeps its own fields.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestApp } from "../../dev-support/test-server.ts";
import { get, postEvents } from "../ingest/support/http.ts";

// The full listing (canonical: it fills in more fields) has no CFP; the sparse one has.
const FULL = {
  external_id: "zig-days-2031",
  platform: "other",
  source_url: "https://zigdays.example.org/",
  title: "Zig Days Vienna",
  description: "Two days of Zig talks and workshops.",
  starts_at: "2031-06-10T09:00:00+02:00",
  ends_at: "2031-06-11T18:00:00+02:00",
  venue_name: "Museumsquartier",
  city: "Vienna",
  country: "Austria",
  organiser_name: "Zig Vienna",
  topics: ["zig"],
};
const WITH_CFP = {
  external_id: "luma-zig",
  platform: "luma",
  source_url: "https://lu.ma/zigdays",
  title: "Zig Days Vienna",
  starts_at: "2031-06-10T09:00:00+02:00",
  topics: ["zig"],
  cfp_url: "https://sessionize.example.org/zig-days",
  cfp_closes_at: "2031-03-01",
};

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a group's shown listing lends its member's CFP, saying whose`, async (t) => {
    const server = await startTestApp(kind);
    try {
      const alice = await createApiKey(server, { contributor: "alice" });
      const bob = await createApiKey(server, { contributor: "bob" });
      assert.equal((await postEvents(server.url, alice.key, { events: [FULL] })).status, 200);
      assert.equal((await postEvents(server.url, bob.key, { events: [WITH_CFP] })).status, 200);
      const all = (await get(server.url, "/api/v1/events?topic=zig&collapse=false")).body.data;
      const full = all.find((e: { external_id: string }) => e.external_id === FULL.external_id);
      const lender = all.find((e: { external_id: string }) => e.external_id === "luma-zig");
      // Detection may have grouped them already; an operator's join makes sure.
      const joined = await server.fetch(`/api/v1/admin/events/${full.id}/same-as`, {
        method: "POST",
        headers: { Authorization: `Bearer ${server.adminKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ other_id: lender.id }),
      });
      assert.ok(joined.status < 300, await joined.text());

      await t.step(
        "the listing shows the group once, with the member's CFP and whose",
        async () => {
          const [shown, ...rest] = (await get(server.url, "/api/v1/events?topic=zig")).body.data;
          assert.deepEqual(rest, []);
          assert.equal(shown.id, full.id);
          assert.equal(shown.cfp_url, WITH_CFP.cfp_url);
          assert.equal(shown.cfp_closes_at, "2031-03-02T11:59:59.000Z");
          assert.equal(shown.cfp_status, "open");
          assert.deepEqual(shown.cfp_from, { id: lender.id, platform: "luma" });
        },
      );

      await t.step("search shows it the same way", async () => {
        const reply = await get(server.url, "/api/v1/search?q=zig%20days&mode=text");
        const hits = reply.body.data.filter((h: { event: { title: string } }) =>
          h.event.title === FULL.title
        );
        assert.equal(hits.length, 1);
        assert.deepEqual(hits[0].event.cfp_from, { id: lender.id, platform: "luma" });
      });

      await t.step("cfp=open keeps the group in either order", async () => {
        const byStart = (await get(server.url, "/api/v1/events?topic=zig&cfp=open&sort=starts_at"))
          .body.data;
        assert.deepEqual(byStart.map((e: { id: string }) => e.id), [full.id]);
        // In deadline order each CFP stands for itself: the member that has it.
        const byDeadline = (await get(server.url, "/api/v1/events?topic=zig&cfp=open")).body.data;
        assert.deepEqual(byDeadline.map((e: { id: string }) => e.id), [lender.id]);
      });

      await t.step("each member read by id keeps its own fields", async () => {
        const own = (await get(server.url, `/api/v1/events/${full.id}`)).body.data;
        assert.equal(own.cfp_url, null);
        assert.equal(own.cfp_status, null);
        assert.equal(own.cfp_from, null);
        const other = (await get(server.url, `/api/v1/events/${lender.id}`)).body.data;
        assert.equal(other.cfp_url, WITH_CFP.cfp_url);
        assert.equal(other.cfp_from, null);
        const every = (await get(server.url, "/api/v1/events?topic=zig&collapse=false")).body.data;
        for (const e of every) assert.equal(e.cfp_from, null, "collapse=false lends nothing");
      });
    } finally {
      await server.close();
    }
  });
}
