/**
 * A place filter finds an event however its contributor spelt the place (migration 041): "USA",
 * "U.S.A.", "United States" and "us" are one country, "Germany" and "Deutschland" another; "New
 * York, NY", "NYC" and "new york" one city. On the listing, in search, in query understanding, in
 * MCP's facets and in the keys the database computes, which must agree with the spellings the
 * duplicate matcher treats as one (COUNTRY_ALIASES, cityKey).
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { CITY_ALIASES, COUNTRY_ALIASES } from "../../server/matching-names.ts";
import { cityKey } from "../../server/duplicates/normalise-place.ts";
import { connectClient } from "../mcp/support.ts";
import { type Json, search } from "./support.ts";

/** [external id, country and city as its contributor wrote them] */
const EVENTS: [string, string | null, string | null][] = [
  ["usa", "USA", "New York, NY"],
  ["dotted", "U.S.A.", "NYC"],
  ["named", "United States", "new york"],
  ["code", "us", "Austin, TX"],
  ["de", "Germany", "München"],
  ["deutschland", "Deutschland", "Munich"],
  ["elsewhere", "Kiribati", "South Tarawa"],
  ["italy", "Italy", null],
  ["nowhere", null, null],
];

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a place filter finds every spelling of the place`, async (t) => {
    const server = await startTestServer(kind, { embeddingWorker: "external" });
    try {
      const key = await createApiKey(server, { rate_limit_per_minute: 1000 });
      const pushed = await postBatch(server.url, key.key, {
        events: EVENTS.map(([id, country, city], n) => ({
          external_id: id,
          source_url: `https://events.example.org/${id}`,
          title: `Rust meetup ${n}`,
          starts_at: new Date(Date.now() + (n + 1) * 86_400_000).toISOString(),
          ...(country === null ? {} : { country }),
          ...(city === null ? {} : { city }),
        })),
      });
      assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
      const sql = server.service.deps.db.sql;
      const us = ["usa", "dotted", "named", "code"];

      await t.step("the listing", async () => {
        for (const asked of ["USA", "u.s.a.", "United States", "united states of america"]) {
          const res = await fetch(
            `${server.url}/api/v1/events?country=${encodeURIComponent(asked)}`,
          );
          const body = await res.json();
          assert.equal(res.status, 200, JSON.stringify(body));
          assert.deepEqual(body.data.map((e: Json) => e.external_id), us, asked);
        }
        const res = await fetch(`${server.url}/api/v1/events?country=deutschland`);
        assert.deepEqual((await res.json()).data.map((e: Json) => e.external_id), [
          "de",
          "deutschland",
        ]);
        // A country no list knows still matches its own spelling, and only it.
        const other = await fetch(`${server.url}/api/v1/events?country=KIRIBATI`);
        assert.deepEqual((await other.json()).data.map((e: Json) => e.external_id), ["elsewhere"]);
        for (
          const [city, ids] of [
            ["New York", ["usa", "dotted", "named"]],
            ["nyc", ["usa", "dotted", "named"]],
            ["Munich, Germany", ["de", "deutschland"]],
            ["south tarawa", ["elsewhere"]],
          ] as const
        ) {
          const res = await fetch(`${server.url}/api/v1/events?city=${encodeURIComponent(city)}`);
          assert.deepEqual((await res.json()).data.map((e: Json) => e.external_id), ids, city);
        }
      });

      await t.step("search", async () => {
        const found = await search(server, { q: "rust", mode: "text", country: "U.S.A." });
        assert.equal(found.status, 200, JSON.stringify(found.body));
        assert.deepEqual(
          found.body.data.map((h: Json) => h.event.external_id).sort(),
          [...us].sort(),
        );
      });

      await t.step("query understanding reads other spellings of a stored country", async () => {
        const nyc = await search(server, { q: "rust in NYC", mode: "text" });
        assert.ok(nyc.body.interpreted.city, JSON.stringify(nyc.body.interpreted));
        assert.deepEqual(
          nyc.body.data.map((h: Json) => h.event.external_id).sort(),
          ["dotted", "named", "usa"],
        );
        for (const q of ["rust in the usa", "rust in America"]) {
          const found = await search(server, { q, mode: "text" });
          assert.equal(found.status, 200, JSON.stringify(found.body));
          assert.ok(
            found.body.interpreted.country,
            `${q}: ${JSON.stringify(found.body.interpreted)}`,
          );
          assert.deepEqual(
            found.body.data.map((h: Json) => h.event.external_id).sort(),
            [...us].sort(),
            q,
          );
        }
        // A code of two letters is a word first: "it" does not name Italy.
        const it = await search(server, { q: "rust meetups in it", mode: "text" });
        assert.equal(it.body.interpreted.country, undefined);
      });

      await t.step("MCP's facets count one place once", async () => {
        const client = await connectClient(server.url, "2026-07-28");
        try {
          const result = await client.callTool("list_facets", {});
          const countries = result.structuredContent.countries;
          const counts = countries.map((c: Json) => c.count).sort((a: number, b: number) => b - a);
          assert.deepEqual(counts, [4, 2, 1, 1], JSON.stringify(countries));
          const cities = result.structuredContent.cities;
          const byCity = cities.map((c: Json) => c.count).sort((a: number, b: number) => b - a);
          assert.deepEqual(byCity, [3, 2, 1, 1], JSON.stringify(cities));
        } finally {
          await client.close();
        }
      });

      await t.step("the database's keys agree with the duplicate matcher's spellings", async () => {
        const spellings = Object.keys(COUNTRY_ALIASES);
        const rows = await sql<{ key: string }[]>`
          SELECT event_country_key(s) AS key FROM unnest(${spellings}::text[]) WITH ORDINALITY
            AS x (s, n) ORDER BY n`;
        assert.deepEqual(rows.map((r) => r.key), spellings.map((s) => COUNTRY_ALIASES[s]));
        const [folded] = await sql<{ a: string; b: string; c: string }[]>`
          SELECT event_country_key('  España ') AS a, event_country_key('TÜRKIYE') AS b,
            event_country_key('Côte d''Ivoire') AS c`;
        assert.deepEqual(folded, { a: "es", b: "tr", c: "cote d ivoire" });
        const cities = [
          ...Object.keys(CITY_ALIASES),
          "Austin, TX",
          "Zürich, Switzerland",
          "Frankfurt am Main",
          "  São Paulo ",
          "Kraków",
        ];
        const keys = await sql<{ key: string }[]>`
          SELECT event_city_key(s) AS key FROM unnest(${cities}::text[]) WITH ORDINALITY
            AS x (s, n) ORDER BY n`;
        assert.deepEqual(keys.map((r) => r.key), cities.map((c) => cityKey(c)));
      });
    } finally {
      await server.close();
    }
  });
}
