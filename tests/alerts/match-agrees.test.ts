/**
 * Saved-search matching (server/db/saved-search-match.ts) means what the listing means: for each
 * filter, alone and combined, the events a saved search is told of are exactly those
 * GET /api/v1/events lists with the same filters (every listing, not collapsed), event by event.
 * And every filter the listing takes can be saved, or is refused: none is silently ignored.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { eventQueryShape } from "../../server/api/event-query.ts";
import { MATCHED_FILTERS } from "../../server/db/saved-search-match.ts";
import { alertSettings, call, type Json } from "./support.ts";

Deno.test("every filter of the listing is one a saved search matches on", () => {
  const { limit: _l, cursor: _c, collapse: _k, q: _q, updated_since: _u, ...filters } =
    eventQueryShape;
  assert.deepEqual(Object.keys(filters).sort(), [...MATCHED_FILTERS].sort());
});

const CITIES = [
  ["Berlin", "Germany", 52.52, 13.405],
  ["Lisbon", "Portugal", 38.72, -9.14],
  ["Porto", "Portugal", 41.15, -8.61],
  ["berlin", "germany", 52.5, 13.3],
  [null, null, null, null],
  // One city and one country, spelt as contributors spell them (migration 041).
  ["New York, NY", "U.S.A.", 40.71, -74.0],
  ["NYC", "United States", 40.73, -73.99],
] as const;
const TOPICS = [["rust"], ["Rust", "wasm"], ["python"], []];

/** A call for papers open now, closed, not yet open, or none, with deadlines that differ. */
function cfpOf(i: number) {
  const url = { cfp_url: `https://cfp.example.org/${i}` };
  switch (i % 4) {
    case 0:
      return { ...url, cfp_closes_at: `2030-0${1 + (i % 9)}-15T12:00:00Z` };
    case 1:
      return { ...url, cfp_closes_at: `2025-0${1 + (i % 9)}-15T12:00:00Z` };
    case 2:
      return { ...url, cfp_opens_at: "2030-01-01T00:00:00Z", cfp_closes_at: "2030-06-01" };
    default:
      return i % 8 === 3 ? url : {};
  }
}

/** Forty events that differ in every filtered field. */
function events() {
  return Array.from({ length: 40 }, (_, i) => {
    const [city, country, latitude, longitude] = CITIES[i % CITIES.length];
    return {
      external_id: `m-${i}`,
      platform: ["meetup", "luma", "other"][i % 3],
      source_url: `https://example.org/m/${i}`,
      title: `${["Rust", "Python", "Cloud"][i % 3]} gathering ${i}`,
      description: i % 4 === 0 ? "Talks on kubernetes." : null,
      starts_at: `2031-0${1 + (i % 9)}-1${i % 10}T18:00:00Z`,
      ...(i % 6 === 0 ? { ends_at: `2031-0${1 + (i % 9)}-2${i % 10}T18:00:00Z` } : {}),
      city,
      country,
      latitude,
      longitude,
      is_virtual: i % 5 === 1,
      ...(i % 7 === 2 ? { is_hybrid: true } : {}),
      ...(i % 3 === 0 ? { price_min: 10, currency: "EUR" } : {}),
      topics: TOPICS[i % TOPICS.length],
      ...cfpOf(i),
    };
  });
}

const SEARCHES: { q?: string; filters: Record<string, string | number | boolean> }[] = [
  { q: "rust", filters: {} },
  { q: "kubernetes", filters: { country: "portugal" } },
  { filters: { city: "BERLIN" } },
  { filters: { topic: "rust" } },
  { filters: { is_free: false } },
  { filters: { is_virtual: true } },
  { filters: { attendance: "online" } },
  { filters: { attendance: "in_person" } },
  { filters: { attendance: "hybrid" } },
  { filters: { platform: "luma", from: "2031-03-01", to: "2031-06-15" } },
  { filters: { from: "2031-05-01T00:00:00Z" } },
  { filters: { to: "2031-02-12" } },
  { filters: { external_id: "m-7" } },
  { filters: { near: "38.9,-9.0", radius_km: 100 } },
  { filters: { near: "52.52,13.405" } },
  { q: "python", filters: { city: "Porto", is_free: true, topic: "python" } },
  { filters: { cfp: "open" } },
  { filters: { cfp: "any" } },
  { filters: { cfp_closes_before: "2030-04-15" } },
  { filters: { cfp_closes_after: "2030-01-01T00:00:00Z" } },
  { filters: { cfp_closes_after: "2025-03-01", cfp_closes_before: "2030-03-01" } },
  { q: "rust", filters: { cfp: "open", city: "Berlin" } },
  { filters: { country: "USA" } },
  { filters: { city: "new york" } },
  { q: "python", filters: { country: "united states" } },
];

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a saved search is told of exactly what the listing lists`, async () => {
    const server = await startTestApp(kind, {
      alerts: alertSettings({ maxSavedSearches: 50 }),
      alertWorker: false,
      embeddingWorker: "external",
    });
    try {
      const owner = await createApiKey(server, { contributor: "ann", scopes: ["searches:write"] });
      const pusher = await createApiKey(server, { contributor: "feeds" });
      await call(server, {
        method: "POST",
        path: `/api/v1/admin/keys/${pusher.id}/trust`,
        key: server.adminKey,
      });
      const ids: string[] = [];
      for (const [n, search] of SEARCHES.entries()) {
        const r = await call(server, {
          method: "POST",
          path: "/api/v1/me/searches",
          key: owner.key,
          body: { name: `search ${n}`, ...search },
        });
        assert.equal(r.status, 201, JSON.stringify(r.body));
        ids.push(r.body.data.id);
      }
      const pushed = await postBatch(server.url, pusher.key, { events: events() });
      assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
      // Matching runs after the batch's duplicate detection, after the push answers.
      await server.service.deps.duplicates.settled();
      await server.service.deps.alerts.matched();
      const sql = server.service.deps.db.sql;
      for (const [n, search] of SEARCHES.entries()) {
        const query = new URLSearchParams({
          ...Object.fromEntries(Object.entries(search.filters).map(([k, v]) => [k, String(v)])),
          ...(search.q ? { q: search.q } : {}),
          collapse: "false",
          limit: "100",
          // cfp=open lists by deadline unless told; by start it keeps a group lending its CFP.
          sort: "starts_at",
        });
        const listed = await call(server, {
          method: "GET",
          path: `/api/v1/events?${query}`,
          key: null,
        });
        const expected = listed.body.data.map((e: Json) => e.external_id).sort();
        const hits = await sql<{ external_id: string }[]>`
          SELECT e.external_id FROM alert_hits h JOIN events e ON e.id = h.event_id
          WHERE h.saved_search_ids @> ARRAY[${ids[n]}::uuid]`;
        assert.deepEqual(hits.map((h) => h.external_id).sort(), expected, JSON.stringify(search));
        assert.ok(expected.length > 0 || n === 12, `${JSON.stringify(search)} lists something`);
      }
    } finally {
      await server.close();
    }
  });
}
