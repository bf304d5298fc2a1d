/**
 * A tour is several events: one name in Madrid, Barcelona and Valencia on three following days,
 * pushed by three contributors, stays three listings, while the same tour's stop listed twice is
 * grouped.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestApp } from "../../dev-support/test-server.ts";
import { untilGrouped } from "../../dev-support/grouping.ts";
import { get, postEvents } from "../ingest/support/http.ts";

const STOPS = [
  ["Madrid", 40.42, -3.7],
  ["Barcelona", 41.39, 2.17],
  ["Valencia", 39.47, -0.38],
] as const;

/** Stop `i` of the roadshow as contributor `who` lists it, with coordinates or without. */
function stop(i: number, who: string, placed: boolean) {
  const [city, latitude, longitude] = STOPS[i];
  return {
    external_id: `${who}-roadshow-${i}`,
    platform: "eventbrite",
    source_url: `https://www.eventbrite.com/e/cloud-summit-roadshow-${who}-${i}`,
    title: "Cloud Summit Roadshow",
    starts_at: `2032-10-1${i + 1}T09:00:00+02:00`,
    ends_at: `2032-10-1${i + 1}T17:00:00+02:00`,
    city,
    country: "Spain",
    ...(placed ? { latitude, longitude } : {}),
  };
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a tour's stops in three cities on three days by three contributors stay apart; one stop listed twice is grouped`, async () => {
    const server = await startTestApp(kind);
    try {
      const who = ["ana", "bea", "carla"];
      const keys = await Promise.all(
        who.map((contributor) => createApiKey(server, { contributor })),
      );
      for (const [n, key] of keys.entries()) {
        // The first with coordinates, the others without: told apart either way.
        const reply = await postEvents(server.url, key.key, { events: [stop(n, who[n], n === 0)] });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
      }
      await untilGrouped(server.service.deps.db.sql);
      const shown = await get(server.url, "/api/v1/events?from=2032-01-01&limit=100");
      assert.deepEqual(
        shown.body.data.map((e: { city: string; duplicates: unknown[] }) => [e.city, e.duplicates]),
        [["Madrid", []], ["Barcelona", []], ["Valencia", []]],
      );
      // Bea lists the Madrid stop too: that one is grouped with Ana's.
      const again = await postEvents(server.url, keys[1].key, { events: [stop(0, "bea", false)] });
      assert.equal(again.status, 200);
      await untilGrouped(server.service.deps.db.sql);
      const after = await get(server.url, "/api/v1/events?from=2032-01-01&limit=100");
      assert.deepEqual(
        after.body.data.map((e: { city: string; duplicates: unknown[] }) => [
          e.city,
          e.duplicates.length,
        ]),
        [["Madrid", 1], ["Barcelona", 0], ["Valencia", 0]],
      );
    } finally {
      await server.close();
    }
  });
}
