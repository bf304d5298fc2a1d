/**
 * Two contributors pushing the same conferences at the same moment: whichever batch is stored
 * first, the other finds its listings, so every conference is grouped once both answered.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestApp } from "../../dev-support/test-server.ts";
import { get, postEvents } from "../ingest/support/http.ts";
import { untilGrouped } from "../../dev-support/grouping.ts";

const CITIES = ["Lyon", "Porto", "Gdansk", "Leeds", "Bergen", "Graz"];

/** Conference `i` of a round as one contributor words it. */
function listing(round: number, i: number, who: "alice" | "bob") {
  const day = String(1 + round * 6 + i).padStart(2, "0");
  const name = `Xylo${round}${i} ${["Data", "Cloud", "Web", "Rust", "Python", "Graph"][i]}`;
  return {
    external_id: `${who}-${round}-${i}`,
    platform: who === "alice" ? "other" : "meetup",
    source_url: `https://${who}.example.org/${round}/${i}`,
    title: who === "alice" ? `${name} Conference 2032` : `${name} Conf`,
    starts_at: `2032-03-${day}T${who === "alice" ? "09" : "10"}:00:00Z`,
    city: CITIES[i],
  };
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] batches of two keys stored at the same moment still group their listings`, async () => {
    const server = await startTestApp(kind);
    try {
      const [alice, bob] = await Promise.all(
        ["alice", "bob"].map((contributor) =>
          createApiKey(server, { contributor, rate_limit_per_minute: 10_000 })
        ),
      );
      const rounds = 4;
      for (let round = 0; round < rounds; round++) {
        const replies = await Promise.all(
          [[alice.key, "alice"], [bob.key, "bob"]].map(([key, who]) =>
            postEvents(server.url, key, {
              events: CITIES.map((_, i) => listing(round, i, who as "alice" | "bob")),
            })
          ),
        );
        for (const r of replies) assert.equal(r.status, 200, JSON.stringify(r.body));
      }
      await untilGrouped(server.service.deps.db.sql);
      const shown = await get(server.url, "/api/v1/events?from=2032-01-01&limit=100");
      const every = await get(
        server.url,
        "/api/v1/events?from=2032-01-01&limit=100&collapse=false",
      );
      assert.equal(every.body.data.length, rounds * CITIES.length * 2);
      const alone = every.body.data.filter((e: { duplicates: unknown[] }) =>
        e.duplicates.length !== 1
      );
      assert.deepEqual(alone.map((e: { title: string }) => e.title), []);
      assert.equal(shown.body.data.length, rounds * CITIES.length);
    } finally {
      await server.close();
    }
  });
}
