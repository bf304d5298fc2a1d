/**
 * `near=lat,lon` and `radius_km` on GET /api/v1/events and /api/v1/search (and so on the site and
 * its feeds): the same filter as the MCP tools', across the antimeridian, with plain 400s for
 * malformed values, and in the OpenAPI document.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { daysFromNow } from "./seed-events.ts";
import type { Json } from "./support.ts";

const PLACES = [
  { title: "Taveuni east", latitude: -16.85, longitude: -179.95 },
  { title: "Taveuni west", latitude: -16.85, longitude: 179.9 },
  { title: "Suva", latitude: -18.1416, longitude: 178.4419 },
  { title: "Lisbon", latitude: 38.72, longitude: -9.14 },
  { title: "Sintra", latitude: 38.8, longitude: -9.38 },
  { title: "Porto", latitude: 41.15, longitude: -8.61 },
  { title: "Online" },
];

for (const kind of testBackends()) {
  Deno.test(`[${kind}] near and radius_km filter the list and search endpoints`, async () => {
    const server = await startTestServer(kind);
    try {
      const key = await createApiKey(server);
      const pushed = await postBatch(server.url, key.key, {
        events: PLACES.map((p, i) =>
          sampleEvent(i, { ...p, title: `${p.title} tech meetup`, starts_at: daysFromNow(i + 1) })
        ),
      });
      assert.equal(pushed.status, 200);
      const get = async (path: string) => {
        const res = await fetch(`${server.url}${path}`);
        return { status: res.status, body: await res.json() };
      };
      const titles = async (path: string) =>
        (await get(path)).body.data.map((e: Json) => (e.event ?? e).title.split(" ")[0]).sort();

      assert.deepEqual(await titles("/api/v1/events?near=-16.85,179.98&radius_km=20"), [
        "Taveuni",
        "Taveuni",
      ]);
      assert.deepEqual(await titles("/api/v1/events?near=-16.85,-179.95&radius_km=300"), [
        "Suva",
        "Taveuni",
        "Taveuni",
      ]);
      assert.deepEqual(await titles("/api/v1/events?near=38.72,-9.14"), ["Lisbon", "Sintra"]);
      assert.deepEqual(await titles("/api/v1/events?near=38.72,-9.14&radius_km=400"), [
        "Lisbon",
        "Porto",
        "Sintra",
      ]);
      assert.deepEqual(
        await titles("/api/v1/search?q=meetup&mode=text&near=%2B38.72,-9.14&radius_km=10"),
        ["Lisbon"],
      );
      assert.deepEqual(
        await titles("/api/v1/search?q=meetup&mode=text&near=-16.85,180&radius_km=20"),
        ["Taveuni", "Taveuni"],
      );

      for (
        const [query, message] of [
          ["near=abc", /near must be latitude,longitude/],
          ["near=52.5", /near must be latitude,longitude/],
          ["near=52.5,13.4,7", /near must be latitude,longitude/],
          ["near=91,0", /latitude must be from -90 to 90/],
          ["near=0,180.5", /longitude from -180 to 180/],
          ["near=0,0&radius_km=0", /radius_km must be a number of kilometres above 0/],
          ["near=0,0&radius_km=1001", /at most 1000/],
          ["near=0,0&radius_km=ten", /radius_km must be a number/],
          ["radius_km=10", /radius_km needs near/],
        ] as const
      ) {
        for (const path of ["/api/v1/events", "/api/v1/search?q=meetup&mode=text"]) {
          const url = `${path}${path.includes("?") ? "&" : "?"}${query}`;
          const res = await get(url);
          assert.equal(res.status, 400, url);
          assert.match(JSON.stringify(res.body.details), message, url);
        }
      }

      // The site and its feeds take the same parameters; pages ignore what they cannot use.
      const page = await (await fetch(`${server.url}/?near=38.72,-9.14&radius_km=30`)).text();
      assert.match(page, /Lisbon tech meetup/);
      assert.doesNotMatch(page, /Porto tech meetup/);
      const lenient = await fetch(`${server.url}/?radius_km=30`);
      assert.equal(lenient.status, 200);
      await lenient.body?.cancel();
      const feed = await (await fetch(`${server.url}/events.ics?near=38.72,-9.14&radius_km=30`))
        .text();
      assert.match(feed, /Lisbon tech meetup/);
      assert.doesNotMatch(feed, /Porto tech meetup/);

      const doc = (await get("/api/v1/openapi.json")).body;
      for (const path of ["/api/v1/events", "/api/v1/search"]) {
        const names = doc.paths[path].get.parameters.map((p: Json) => p.name);
        assert.ok(names.includes("near") && names.includes("radius_km"), path);
      }
    } finally {
      await server.close();
    }
  });
}
