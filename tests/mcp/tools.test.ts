/**
 * Both real MCP clients, over real HTTP against the running server, list the tools and call each
 * with good and bad arguments; every result's structured content matches the declared output
 * schema (checked with ajv) and comes as the same JSON in text.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { startTestServer, type TestServer } from "../../dev-support/test-server.ts";
import { startFakeOpenAI } from "../../dev-support/fake-openai.ts";
import { admin, eventually } from "../search/support.ts";
import { pushShowcase } from "./seed-events.ts";
import {
  assertValidResult,
  CLIENT_KINDS,
  connectClient,
  errorMessage,
  type Json,
  type McpTestClient,
} from "./support.ts";

const TOOLS = ["search_events", "get_event", "find_similar_events", "list_facets"];

for (const kind of testBackends()) {
  Deno.test(`[${kind}] both MCP clients use every tool, with good and bad arguments`, async (t) => {
    const fake = startFakeOpenAI();
    const server = await startTestServer(kind, {
      embeddings: fake.embeddingSettings(32),
    });
    try {
      const key = await pushShowcase(server);
      await admin(server, "POST", `/api/v1/admin/keys/${key.id}/trust`);
      if (kind === "pglite") {
        await eventually("every event has its vector", async () => {
          const health = await (await fetch(`${server.url}/healthz`)).json();
          return health.ai_search.waiting_for_vectors === 0;
        });
      }
      for (const clientKind of CLIENT_KINDS) {
        await t.step(clientKind, async () => {
          const client = await connectClient(server.url, clientKind);
          try {
            await exerciseTools(server, client);
          } finally {
            await client.close();
          }
        });
      }
    } finally {
      await server.close();
      await fake.close();
    }
  });
}

async function exerciseTools(server: TestServer, client: McpTestClient) {
  const tools = await client.listTools();
  assert.deepEqual(tools.map((t: Json) => t.name), TOOLS);
  assert.deepEqual(await client.listTools(), tools, "tools/list is deterministic");
  for (const tool of tools) {
    assert.deepEqual(tool.annotations, {
      title: tool.title,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    assert.ok(tool.description.length > 200, `${tool.name} is described for a model`);
    assert.equal(tool.inputSchema.type, "object");
    assert.equal(tool.outputSchema.type, "object");
  }
  const tool = (name: string) => tools.find((t: Json) => t.name === name);
  const call = async (name: string, args: unknown) =>
    assertValidResult(tool(name), await client.callTool(name, args));
  const fail = async (name: string, args: unknown) =>
    errorMessage(await client.callTool(name, args));
  const aiSearch = server.kind === "pglite";

  // Upcoming events, soonest first; the past one only with `from`.
  const upcoming = await call("search_events", {});
  assert.equal(upcoming.mode, "upcoming");
  assert.deepEqual(upcoming.results.map((e: Json) => e.title), [
    "Rust Berlin: ownership in practice",
    "AI safety online conference",
    "Rust Lisbon meetup",
    "Hybrid Kubernetes day",
    "Go conference Sintra",
  ]);
  assert.equal(upcoming.total, 5);
  assert.equal(upcoming.next_cursor, null);
  const berlin = upcoming.results[0];
  assert.equal(berlin.page_url, `${server.url}/events/${berlin.id}`);
  assert.equal(berlin.source_url, "https://events.example.org/e/1");
  assert.equal(berlin.attendance, "in_person");
  assert.equal(berlin.timezone, "Europe/Berlin");
  assert.equal(
    Date.parse(berlin.starts_at_local),
    Date.parse(berlin.starts_at),
    "local time is the same instant",
  );
  assert.match(berlin.starts_at_local, /[+-]0[12]:00$/);
  // An event without a zone is shown in UTC, as on the site (docs/dates.md).
  const online = upcoming.results[1];
  assert.equal(online.timezone, null);
  assert.equal(online.starts_at_local, online.starts_at.replace(/(\.\d+)?Z$/, "+00:00"));
  // Cut at a sentence: whole sentences, within 280 characters.
  assert.match(
    berlin.description,
    /^Two talks on borrowing and lifetimes\. Then pizza\. The first/,
  );
  assert.ok(berlin.description.length <= 280 && berlin.description.endsWith("examples."));
  assert.equal(upcoming.results[2].price, "EUR 10-20");
  assert.equal(upcoming.results[1].attendance, "online");
  assert.equal(upcoming.results[3].attendance, "hybrid");

  // Pages of two follow each other without gaps or repeats.
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 5; i++) {
    const page = await call("search_events", { limit: 2, ...(cursor ? { cursor } : {}) });
    seen.push(...page.results.map((e: Json) => e.title));
    cursor = page.next_cursor ?? undefined;
    if (!cursor) break;
  }
  assert.deepEqual(seen, upcoming.results.map((e: Json) => e.title));

  const past = await call("search_events", { query: "rust", mode: "text", from: "2000-01-01" });
  assert.equal((await call("search_events", { from: "2000-01-01", city: "berlin" })).total, 2);
  assert.equal(past.mode, "text");
  assert.equal(past.total, null, "ranked searches have no total");
  assert.equal(past.results.length, 3);
  assert.ok(past.results.some((e: Json) => e.title === "Past Rust meetup"));

  // Default mode: hybrid where AI search is available, else text, and the result says so.
  const rust = await call("search_events", { query: "rust" });
  assert.equal(rust.mode, aiSearch ? "hybrid" : "text");
  assert.deepEqual(rust.results.map((e: Json) => e.title).slice(0, 2).sort(), [
    "Rust Berlin: ownership in practice",
    "Rust Lisbon meetup",
  ]);
  if (!aiSearch) assert.match(rust.notices.join(" "), /AI search is unavailable/);

  // Filters.
  const titles = async (args: Json) =>
    (await call("search_events", args)).results.map((e: Json) => e.title).sort();
  assert.deepEqual(await titles({ city: "PORTO" }), ["Hybrid Kubernetes day"]);
  assert.deepEqual(await titles({ country: "portugal", free: false }), ["Rust Lisbon meetup"]);
  assert.deepEqual(await titles({ online: "online" }), [
    "AI safety online conference",
    "Hybrid Kubernetes day",
  ]);
  assert.deepEqual(await titles({ online: "hybrid" }), ["Hybrid Kubernetes day"]);
  assert.deepEqual(await titles({ topic: "Machine Learning" }), ["AI safety online conference"]);
  assert.deepEqual(
    await titles({ near: { latitude: 38.72, longitude: -9.14, radius_km: 30 } }),
    ["Go conference Sintra", "Rust Lisbon meetup"],
  );
  assert.deepEqual(
    await titles({ near: { latitude: 38.72, longitude: -9.14 } }),
    ["Go conference Sintra", "Rust Lisbon meetup"],
    "radius_km defaults to 50",
  );
  const week = await call("search_events", { when: "next_week", timezone: "Asia/Tokyo" });
  assert.equal(week.period.when, "next_week");
  assert.equal(week.period.timezone, "Asia/Tokyo");
  assert.match(week.period.from, /T15:00:00.000Z$/, "Monday 00:00 in Tokyo");
  for (const e of week.results) {
    assert.ok(e.starts_at < week.period.to && (e.ends_at ?? e.starts_at) >= week.period.from);
  }

  // Bad arguments are tool errors that say how to fix the call.
  assert.match(await fail("search_events", { limit: 0 }), /limit must be a whole number from 1/);
  assert.match(await fail("search_events", { limit: "ten" }), /limit must be a whole number/);
  assert.match(await fail("search_events", { location: "Berlin" }), /unknown argument location/);
  assert.match(await fail("search_events", { query: "  " }), /query must not be empty/);
  assert.match(await fail("search_events", { mode: "fuzzy" }), /mode must be one of text/);
  assert.match(await fail("search_events", { when: "tomorrow" }), /when must be one of today/);
  assert.match(
    await fail("search_events", { when: "today", from: "2027-01-01" }),
    /either when or from\/to/,
  );
  assert.match(await fail("search_events", { timezone: "Mars/Olympus" }), /IANA time zone/);
  assert.match(await fail("search_events", { from: "next tuesday" }), /not a date/);
  assert.match(await fail("search_events", { from: "2027-02-30" }), /not a date/);
  assert.match(await fail("search_events", { cursor: "bm9wZQ" }), /cursor is not one/);
  assert.match(
    await fail("search_events", { near: { latitude: 91, longitude: 0 } }),
    /near.latitude must be from -90 to 90/,
  );
  assert.match(
    await fail("search_events", { near: { latitude: 0, longitude: 0, radius_km: 5000 } }),
    /radius_km may be at most 1000/,
  );
  assert.match(
    await fail("search_events", { near: { lat: 0, lon: 0 } }),
    /near takes only latitude, longitude and radius_km/,
  );
  assert.match(
    await fail("search_events", { query: "rust", cursor: upcomingCursor(upcoming) }),
    /cursor belongs to another search|cursor is not one/,
  );

  // get_event: the whole event.
  const full = (await call("get_event", { id: berlin.id })).event;
  assert.equal(full.id, berlin.id);
  assert.equal(full.external_id, "evt-1");
  assert.ok(full.description.length > 500, "the whole description");
  assert.equal(full.venue_name, "c-base");
  assert.equal(full.latitude, 52.513);
  assert.equal(full.page_url, berlin.page_url);
  assert.equal(full.starts_at_local, berlin.starts_at_local);
  assert.match(await fail("get_event", { id: "evt-1" }), /id must be an event id \(a UUID/);
  assert.match(await fail("get_event", {}), /id must be an event id/);
  assert.match(
    await fail("get_event", { id: "00000000-0000-4000-8000-000000000000" }),
    /No event has the id 00000000-0000-4000-8000-000000000000/,
  );

  // find_similar_events: by meaning, never the event itself; or a plain error without AI search.
  if (aiSearch) {
    const similar = await call("find_similar_events", { id: berlin.id, limit: 3 });
    assert.equal(similar.source.id, berlin.id);
    assert.equal(similar.results.length, 3);
    assert.ok(similar.results.every((e: Json) => e.id !== berlin.id && e.in_ai_search));
    assert.equal(similar.results[0].title, "Rust Lisbon meetup", "shares the most words");
    const nearLisbon = await call("find_similar_events", {
      id: berlin.id,
      near: { latitude: 38.72, longitude: -9.14, radius_km: 100 },
    });
    assert.deepEqual(nearLisbon.results.map((e: Json) => e.title).sort(), [
      "Go conference Sintra",
      "Rust Lisbon meetup",
    ]);
  } else {
    assert.match(
      await fail("find_similar_events", { id: berlin.id }),
      /AI search is unavailable: .*use search_events/,
    );
  }
  assert.match(await fail("find_similar_events", { id: berlin.id, limit: 51 }), /limit must be/);

  // list_facets: what there is, with counts.
  const facets = await call("list_facets", {});
  assert.equal(facets.events, 5);
  assert.deepEqual(facets.countries, [
    { name: "Portugal", count: 3 },
    { name: "Germany", count: 1 },
  ]);
  assert.deepEqual(facets.topics.slice(0, 1), [{ name: "rust", count: 2 }]);
  assert.deepEqual(facets.distinct, { cities: 4, countries: 2, topics: 4 });
  const portugal = await call("list_facets", { country: "Portugal", limit: 2 });
  assert.deepEqual(portugal.cities, [{ name: "Lisbon", count: 1 }, { name: "porto", count: 1 }]);
  assert.equal(portugal.distinct.cities, 3);
  assert.match(await fail("list_facets", { limit: 1000 }), /limit must be a whole number/);
}

/** A listing cursor, for checking that a ranked search refuses it. */
function upcomingCursor(listing: Json): string {
  return btoa(JSON.stringify({ s: listing.results[0].starts_at, i: listing.results[0].id }));
}
