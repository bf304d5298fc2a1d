/**
 * Collapse never hides a match: several contributors push the same city's meetups (true
 * duplicates), and one listing of each batch carries what only it has (a word in its
 * description, a topic, its platform). A listing or search asking for that finds the group, as
 * that listing or as the shown one, right after the pushes and once they are grouped.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestApp, type TestServer } from "../../dev-support/test-server.ts";
import { untilGrouped } from "../../dev-support/grouping.ts";
import { get, postEvents } from "../ingest/support/http.ts";

const CONTRIBUTORS = ["ana", "ben", "cem", "dag"];
const PLATFORMS = ["meetup", "luma", "eventbrite", "other"];
const WORDS = ["zorblat", "quimvex", "frandolq", "plixvorn"];
const TOPICS = ["Quantum Knitting", "Lunar Gardening", "Sonic Pottery", "Tidal Origami"];

/** The city's meetups as contributor `c` lists them; its listing `c` carries its own marks. */
function batch(c: number) {
  return Array.from({ length: 4 }, (_, i) => ({
    external_id: `${CONTRIBUTORS[c]}-${i}`,
    platform: PLATFORMS[c],
    source_url: `https://${CONTRIBUTORS[c]}.example.org/meetups/${i}`,
    title: ["Rust Lyon Meetup", "Lyon Kotlin Night", "Data Lyon Evening", "Lyon Go Gophers"][i],
    starts_at: `2032-11-0${i + 2}T18:30:00+01:00`,
    city: "Lyon",
    country: "France",
    // The marked listing is the least complete: never its group's canonical one.
    ...(i === c ? { description: `Bring your ${WORDS[c]} along.`, topics: [TOPICS[c]] } : {
      description: "Talks and drinks.",
      ends_at: `2032-11-0${i + 2}T21:30:00+01:00`,
      venue_name: "La Cordée",
      organiser_name: "Lyon Tech",
      tags: ["community"],
    }),
  }));
}

// deno-lint-ignore no-explicit-any
type Listed = any;

/** Whether each asked-for mark finds its group (listings and text search). */
async function everyMarkFound(server: TestServer): Promise<string[]> {
  const missing: string[] = [];
  const titles = (data: Listed[]) => data.map((e) => e.title ?? e.event.title);
  for (const [c, word] of WORDS.entries()) {
    const title = batch(c)[c].title;
    const listed = await get(server.url, `/api/v1/events?from=2032-01-01&q=${word}`);
    if (!titles(listed.body.data).includes(title)) missing.push(`?q=${word}`);
    const searched = await get(server.url, `/api/v1/search?mode=text&q=${word}`);
    if (!titles(searched.body.data).includes(title)) missing.push(`search ${word}`);
    const topic = await get(
      server.url,
      `/api/v1/events?from=2032-01-01&topic=${encodeURIComponent(TOPICS[c])}`,
    );
    if (!titles(topic.body.data).includes(title)) missing.push(`topic ${TOPICS[c]}`);
    // With a word every listing of the group holds, the canonical one meets the words' weaker
    // tier (half of them): the marked listing, meeting all, comes first.
    const both = encodeURIComponent(`${title.split(" ")[0]} ${word}`);
    const tiered = await get(server.url, `/api/v1/events?from=2032-01-01&q=${both}`);
    if (tiered.body.data[0]?.external_id !== `${CONTRIBUTORS[c]}-${c}`) missing.push(`?q=${both}`);
    const ranked = await get(server.url, `/api/v1/search?mode=text&q=${both}`);
    if (ranked.body.data[0]?.event.external_id !== `${CONTRIBUTORS[c]}-${c}`) {
      missing.push(`search ${both}`);
    }
    const platform = await get(
      server.url,
      `/api/v1/events?from=2032-01-01&platform=${PLATFORMS[c]}`,
    );
    if (titles(platform.body.data).length !== 4) missing.push(`platform ${PLATFORMS[c]}`);
  }
  return missing;
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a word, topic or platform only a hidden listing has still finds its group`, async () => {
    const server = await startTestApp(kind);
    try {
      const keys = await Promise.all(
        CONTRIBUTORS.map((contributor) =>
          createApiKey(server, { contributor, rate_limit_per_minute: 10_000 })
        ),
      );
      const replies = await Promise.all(
        keys.map((k, c) => postEvents(server.url, k.key, { events: batch(c) })),
      );
      for (const r of replies) assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(await everyMarkFound(server), [], "right after the pushes");
      await untilGrouped(server.service.deps.db.sql);
      const shown = await get(server.url, "/api/v1/events?from=2032-01-01&limit=100");
      assert.equal(shown.body.data.length, 4, "one listing a meetup once grouped");
      assert.deepEqual(await everyMarkFound(server), [], "once grouped");
    } finally {
      await server.close();
    }
  });
}
