/** The public read API: one event by id, filters, full-text search with ranking, pagination. */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { detailsAt, get, listAll, serverWithKey } from "./support/http.ts";
import { batches, freshEvent } from "./support/batches.ts";

// deno-lint-ignore no-explicit-any
const ids = (events: any[]) => events.map((e) => e.external_id);

/** An instant `days` from now, as ISO 8601. */
function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString();
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the public read API lists, filters, searches and pages events`, async (t) => {
    const { server, key } = await serverWithKey(kind);
    const b = batches(server.url, key);
    const list = async (query: string) => {
      const reply = await get(server.url, `/api/v1/events?${query}`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body;
    };
    const catalogue = [
      freshEvent({
        external_id: "berlin-rust",
        title: "Rust meetup",
        city: "Berlin",
        country: "Germany",
        platform: "meetup",
        topics: ["Rust", "Systems"],
        is_free: true,
        starts_at: "2031-01-10T18:00:00Z",
      }),
      freshEvent({
        external_id: "paris-ai",
        title: "AI conference",
        city: "Paris",
        country: "France",
        platform: "luma",
        topics: ["AI"],
        is_free: false,
        is_hybrid: true,
        price_min: 100,
        starts_at: "2031-01-05T09:00:00Z",
      }),
      freshEvent({
        external_id: "online-go",
        title: "Go online workshop",
        is_virtual: true,
        platform: "eventbrite",
        topics: ["go"],
        starts_at: "2031-02-01T15:00:00Z",
      }),
      freshEvent({
        external_id: "past-berlin",
        title: "Rust meetup of the past",
        city: "berlin",
        platform: "meetup",
        starts_at: "2020-03-01T18:00:00Z",
      }),
      freshEvent({
        external_id: "running-now",
        title: "A week-long hackathon",
        starts_at: daysFromNow(-2),
        ends_at: daysFromNow(3),
      }),
    ];
    try {
      await t.step(
        "a pushed event is listed and found by a word of its description at once",
        async () => {
          const e = freshEvent({ description: "Exploring quasicrystalline lattices in detail" });
          await b.accept([e]);
          const found = await list("q=quasicrystalline");
          assert.deepEqual(ids(found.data), [e.external_id]);
          assert.ok(ids((await list("limit=100")).data).includes(e.external_id));
          assert.deepEqual(ids((await list("q=lattice")).data), [e.external_id]);
        },
      );

      await t.step("one event is served by id, and unknown or garbage ids get 404", async () => {
        await b.accept(catalogue);
        const [listed] = (await list("external_id=berlin-rust")).data;
        const one = await get(server.url, `/api/v1/events/${listed.id}`);
        assert.equal(one.status, 200);
        assert.deepEqual(one.body, { data: listed });
        for (
          const id of [
            crypto.randomUUID(),
            // The same id in capitals with its last digit changed (a UUID ignores case).
            listed.id.toUpperCase().replace(/.$/, listed.id.endsWith("0") ? "1" : "0"),
            "abc",
            "1",
            "%00",
            "x".repeat(5000),
            "00000000-0000-0000-0000-00000000000g",
          ]
        ) {
          const reply = await get(server.url, `/api/v1/events/${id}`);
          assert.equal(reply.status, 404, `${id}: ${reply.status}`);
          assert.equal(reply.body.code, "not_found");
        }
      });

      await t.step(
        "a stored event has the submitted fields plus id, times, in_ai_search, duplicates and " +
          "cfp_status",
        async () => {
          const [e] = (await list("external_id=berlin-rust")).data;
          const owned = [
            "id",
            "created_at",
            "updated_at",
            "in_ai_search",
            "duplicates",
            "cfp_status",
          ];
          for (const field of owned) {
            assert.ok(field in e, `${field} missing`);
          }
          assert.equal(Object.keys(e).length, 39);
        },
      );

      await t.step("without from, only events not yet over are listed, soonest first", async () => {
        const shown = ids((await list("limit=100")).data);
        assert.ok(!shown.includes("past-berlin"));
        assert.ok(shown.includes("running-now"), "an event under way is still listed");
        const order = shown.filter((id) => ["paris-ai", "berlin-rust", "online-go"].includes(id));
        assert.deepEqual(order, ["paris-ai", "berlin-rust", "online-go"]);
      });

      await t.step("with from, past events are listed too", async () => {
        const shown = ids((await list("from=2020-01-01&to=2020-12-31")).data);
        assert.deepEqual(shown, ["past-berlin"]);
        assert.deepEqual(ids((await list("from=2031-01-06T00:00:00Z&to=2031-01-31")).data), [
          "berlin-rust",
        ]);
        // `to` as a date covers that whole day.
        assert.deepEqual(ids((await list("from=2031-01-10&to=2031-01-10")).data), [
          "berlin-rust",
        ]);
        assert.deepEqual(
          ids((await list("from=2031-01-05T09:00:01%2B00:00&to=2031-01-10T17:59:59Z")).data),
          [],
        );
      });

      await t.step("city, country and topic filters ignore case", async () => {
        assert.deepEqual(ids((await list("city=BERLIN")).data), ["berlin-rust"]);
        assert.deepEqual(ids((await list("city=berlin&from=2000-01-01")).data), [
          "past-berlin",
          "berlin-rust",
        ]);
        assert.deepEqual(ids((await list("country=france")).data), ["paris-ai"]);
        assert.deepEqual(ids((await list("topic=rust")).data), ["berlin-rust"]);
        assert.deepEqual(ids((await list("topic=GO")).data), ["online-go"]);
      });

      await t.step(
        "platform, external_id, is_virtual, attendance, is_free filter exactly",
        async () => {
          assert.deepEqual(ids((await list("platform=luma")).data), ["paris-ai"]);
          assert.deepEqual(ids((await list("platform=meetup&from=2000-01-01")).data), [
            "past-berlin",
            "berlin-rust",
          ]);
          assert.deepEqual(ids((await list("external_id=online-go")).data), ["online-go"]);
          assert.deepEqual(ids((await list("is_virtual=true")).data), ["online-go"]);
          assert.deepEqual(ids((await list("is_free=false")).data), ["paris-ai"]);
          assert.deepEqual(ids((await list("attendance=hybrid")).data), ["paris-ai"]);
          assert.deepEqual(ids((await list("attendance=online")).data), ["paris-ai", "online-go"]);
          assert.ok(ids((await list("attendance=in_person&limit=100")).data).includes("paris-ai"));
          assert.ok(
            !ids((await list("attendance=in_person&limit=100")).data).includes("online-go"),
          );
          assert.ok(!ids((await list("is_free=true&limit=100")).data).includes("paris-ai"));
          assert.deepEqual(ids((await list("city=Berlin&platform=luma")).data), []);
        },
      );

      await t.step("q lists soonest first; text search ranks a title match higher", async () => {
        const inDescription = freshEvent({
          title: "Evening talks",
          description: "Tonight: zeppelins and their engineering",
          starts_at: "2030-01-01T10:00:00Z",
        });
        const inTitle = freshEvent({
          title: "Zeppelin engineering night",
          starts_at: "2032-01-01T10:00:00Z",
        });
        await b.accept([inDescription, inTitle]);
        assert.deepEqual(ids((await list("q=zeppelin")).data), [
          inDescription.external_id,
          inTitle.external_id,
        ]);
        const ranked = await get(server.url, "/api/v1/search?q=zeppelin&mode=text");
        assert.deepEqual(ranked.body.data.map((hit: { event: unknown }) => hit.event), [
          ...(await list("external_id=" + inTitle.external_id + "&from=2000-01-01")).data,
          ...(await list("external_id=" + inDescription.external_id + "&from=2000-01-01")).data,
        ]);
      });

      await t.step("limit and cursor walk every event exactly once", async () => {
        // Shared start times make the order depend on the tie-breaker too.
        const many = Array.from({ length: 23 }, (_, i) =>
          freshEvent({
            title: `Paging event ${i}`,
            description: i % 3 === 0 ? "paging paging paging" : "about paging",
            city: "Pagetown",
            starts_at: `2033-0${1 + (i % 4)}-01T10:00:00Z`,
          }));
        await b.accept(many);
        const expected = ids(many).sort();
        for (const limit of [1, 5, 7, 23, 100]) {
          const walked = await listAll(server.url, `city=Pagetown&limit=${limit}`);
          assert.deepEqual(ids(walked).sort(), expected, `limit ${limit}`);
          assert.equal(new Set(ids(walked)).size, walked.length);
          const starts = walked.map((e) => e.starts_at);
          assert.deepEqual(starts, [...starts].sort());
          const ranked = await listAll(server.url, `q=paging&city=Pagetown&limit=${limit}`);
          assert.deepEqual(ids(ranked).sort(), expected, `q, limit ${limit}`);
        }
        const first = await list("city=Pagetown&limit=23");
        assert.equal(first.next_cursor, null);
        const page = await list("city=Pagetown&limit=22");
        assert.equal(typeof page.next_cursor, "string");
      });

      await t.step("limit defaults to 20 and may not pass 100", async () => {
        const page = await list("city=Pagetown");
        assert.equal(page.data.length, 20);
        assert.equal(typeof page.next_cursor, "string");
      });

      await t.step("bad query parameters get 400 naming each parameter", async () => {
        const cases: [string, string][] = [
          ["limit=0", "limit"],
          ["limit=101", "limit"],
          ["limit=ten", "limit"],
          ["limit=2.5", "limit"],
          ["is_virtual=yes", "is_virtual"],
          ["is_free=1", "is_free"],
          ["platform=facebook", "platform"],
          ["from=yesterday", "from"],
          ["to=2031-13-01", "to"],
          ["from=2031-01-01T10:00:00", "from"],
          ["cursor=not-a-cursor", "cursor"],
          ["cursor=", "cursor"],
          ["city=", "city"],
          ["q=%20%20", "q"],
          ["sort=title", "sort"],
        ];
        for (const [query, name] of cases) {
          const reply = await get(server.url, `/api/v1/events?${query}`);
          assert.equal(reply.status, 400, `${query}: ${reply.status}`);
          detailsAt(reply, ["query", name]);
        }
        const two = await get(server.url, "/api/v1/events?limit=0&platform=x");
        assert.equal(two.body.details.length, 2);
      });

      await t.step("hostile query strings get 400 or an answer, never a 500", async () => {
        const forged = (cursor: object) =>
          btoa(JSON.stringify(cursor)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
        const queries = [
          "q=%00",
          "city=a%00b",
          "topic=%00",
          "external_id=%00",
          "q=%FF%FE",
          "q=%E0%A4%A",
          "q=%",
          `q=${"word ".repeat(400)}`,
          "q=!!!%20%26%20|%20()",
          'q="unclosed',
          "q=-",
          "q=the",
          "q=a:*",
          `q=${encodeURIComponent("🦀 東京")}`,
          "from=0000-01-01",
          "from=9999-12-31T23:59:59Z&to=2000-01-01",
          "limit=1e2",
          "limit=-0",
          `cursor=${forged({ starts_at: "1 2", id: "------------------------------------" })}`,
          `cursor=${forged({ starts_at: "2031-01-01T00:00:00Z", id: "-".repeat(36) })}`,
          `cursor=${forged({ starts_at: "+275760-09-13T00:00:00.000Z", id: crypto.randomUUID() })}`,
          `cursor=${forged({ starts_at: "-271821-04-20T00:00:00Z", id: crypto.randomUUID() })}`,
          `cursor=${forged({ starts_at: "Tue March 5 2024", id: crypto.randomUUID() })}`,
          `q=x&cursor=${
            forged({ rank: 1e308, starts_at: "2031-01-01T00:00:00Z", id: crypto.randomUUID() })
          }`,
          `q=x&cursor=${
            forged({ rank: 1e-50, starts_at: "2031-01-01T00:00:00Z", id: crypto.randomUUID() })
          }`,
          `cursor=${forged({ starts_at: "2031-01-01T00:00:00Z", id: crypto.randomUUID() })}`,
          `cursor=${btoa("null")}`,
          `cursor=${btoa("[]")}`,
          "q=a&q=b",
        ];
        for (const query of queries) {
          const reply = await get(server.url, `/api/v1/events?${query}`);
          assert.ok([200, 400].includes(reply.status), `${query}: ${reply.status}`);
        }
      });
    } finally {
      await server.close();
    }
  });
}
