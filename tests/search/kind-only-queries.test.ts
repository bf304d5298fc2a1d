/**
 * A query whose words left after understanding name only a kind of event ("online events",
 * "conferences in Paris"), or none ("online", "in Paris", "call for papers"), lists the events
 * within what was understood: those holding the kind's word first, then the others, soonest first.
 * Few events say "event" or "conference" in their text, and ranking by those words alone answered
 * nothing.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { type Json, search } from "./support.ts";

/** [external id, title, city, online, days from now] */
const EVENTS: [string, string, string | null, boolean, number][] = [
  ["symfony", "SymfonyLive Paris", "Paris", false, 30],
  ["apidays", "Apidays Paris", "Paris", false, 10],
  ["api-conf", "Paris conference on APIs", "Paris", false, 50],
  ["rust-berlin", "Rust meetup", "Berlin", false, 5],
  ["xtreme", "XtremeJS Online", null, true, 20],
  ["webinar", "Kubernetes webinar", null, true, 40],
];

for (const kind of testBackends()) {
  Deno.test(`[${kind}] words that name only filters or a kind of event hide no event`, async (t) => {
    const server = await startTestApp(kind);
    try {
      const key = await createApiKey(server, { rate_limit_per_minute: 1000 });
      await postBatch(server.url, key.key, {
        events: EVENTS.map(([id, title, city, online, days], n) =>
          sampleEvent(n, {
            external_id: id,
            title,
            // Two calls for papers open, closing in five days.
            ...(id === "apidays" || id === "xtreme"
              ? {
                cfp_url: `https://events.example.org/cfp/${id}`,
                cfp_closes_at: new Date(Date.now() + 5 * 86_400_000).toISOString(),
              }
              : {}),
            ...(city ? { city, country: city === "Paris" ? "France" : "Germany" } : {}),
            is_virtual: online,
            starts_at: new Date(Date.now() + days * 86_400_000).toISOString(),
          })
        ),
      });
      const find = async (q: string, more: Record<string, string> = {}) => {
        const answer = await search(server, { q, mode: "text", ...more });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        return answer.body;
      };
      const idsOf = (body: Json) => body.data.map((h: Json) => h.event.external_id);

      await t.step("a place: every event there, soonest first", async () => {
        const paris = await find("events in Paris");
        assert.deepEqual(paris.interpreted, { city: "Paris" });
        assert.deepEqual(idsOf(paris), ["apidays", "symfony", "api-conf"]);
        assert.ok(paris.data.every((h: Json) => h.score === 0), "no event holds the word");
        assert.deepEqual(idsOf(await find("upcoming tech events in Paris")), [
          "apidays",
          "symfony",
          "api-conf",
        ]);
        assert.deepEqual(idsOf(await find("events in Paris", { limit: "2" })), [
          "apidays",
          "symfony",
        ]);
      });

      await t.step("the events holding the kind's word come first", async () => {
        const conferences = await find("conferences in Paris");
        assert.deepEqual(idsOf(conferences), ["api-conf", "apidays", "symfony"]);
        assert.ok(conferences.data[0].score > 0);
        assert.deepEqual(conferences.data.slice(1).map((h: Json) => h.score), [0, 0]);
      });

      await t.step("a filter given, not read, is the same", async () => {
        const conferences = await find("conferences", { city: "Paris" });
        assert.deepEqual(idsOf(conferences), ["api-conf", "apidays", "symfony"]);
      });

      await t.step("events in general, or one kind as a subject", async () => {
        assert.deepEqual(idsOf(await find("upcoming events")), [
          "rust-berlin",
          "apidays",
          "xtreme",
          "symfony",
          "webinar",
          "api-conf",
        ]);
        assert.deepEqual(idsOf(await find("webinars")), ["webinar"], "a kind alone is a subject");
      });

      await t.step("a way of attending: every online event", async () => {
        const online = await find("online events");
        assert.deepEqual(online.interpreted, { attendance: "online" });
        assert.deepEqual(idsOf(online), ["xtreme", "webinar"]);
        assert.deepEqual(idsOf(await find("virtual events")), ["xtreme", "webinar"]);
        // Hybrid (the default) too: its semantic half holds only events in AI search, and this
        // key is not trusted.
        const hybrid = await search(server, { q: "online events" });
        assert.deepEqual(idsOf(hybrid.body), ["xtreme", "webinar"]);
      });

      await t.step(
        "words asking for calls for papers only: every event with one open",
        async () => {
          const open = await find("call for papers");
          assert.deepEqual(open.interpreted, { cfp: "open" });
          assert.deepEqual(idsOf(open), ["apidays", "xtreme"]);
          assert.deepEqual(idsOf(await search(server, { q: "open cfp" }).then((r) => r.body)), [
            "apidays",
            "xtreme",
          ]);
          const online = await find("online conferences with open cfp");
          assert.deepEqual(online.interpreted, { attendance: "online", cfp: "open" });
          assert.deepEqual(idsOf(online), ["xtreme"]);
        },
      );

      await t.step("words that only filter: every event within them", async () => {
        const online = await find("online");
        assert.deepEqual(online.interpreted, { attendance: "online" });
        assert.deepEqual(idsOf(online), ["xtreme", "webinar"]);
        const paris = await find("in Paris");
        assert.deepEqual(paris.interpreted, { city: "Paris" });
        assert.deepEqual(idsOf(paris), ["apidays", "symfony", "api-conf"]);
        assert.deepEqual(idsOf(await find("Paris, France")), ["apidays", "symfony", "api-conf"]);
        const soon = await find("next month", { limit: "50" });
        assert.equal(soon.interpreted.when, "next_month");
        assert.ok(soon.data.length > 0, "events 5 to 50 days ahead: one is in next month");
        for (const hit of soon.data) {
          assert.ok(hit.event.starts_at <= soon.interpreted.to, "within the period");
        }
        assert.deepEqual(idsOf(await find("Paris")), ["apidays", "symfony", "api-conf"]);
        assert.deepEqual((await find("Paris")).interpreted, {}, "a bare place stays a word");
      });

      await t.step("a subject still decides what matches", async () => {
        assert.deepEqual(idsOf(await find("kubernetes events online")), ["webinar"]);
        assert.deepEqual(idsOf(await find("rust events in Paris")), []);
      });

      await t.step("the site shows them, and 'everywhere' is every event", async () => {
        const res = await server.fetch(`${server.url}/?q=${encodeURIComponent("online events")}`);
        const html = await res.text();
        assert.equal(res.status, 200);
        assert.match(html, /XtremeJS Online/);
        assert.match(html, /Kubernetes webinar/);
        assert.doesNotMatch(html, /SymfonyLive Paris/);
        assert.match(html, /Showing events online · <a href="\/">/);
        // Its feeds and "Save this search" take what was read: every online event.
        assert.match(html, /<a href="\/alerts\/new\?attendance=online">Save this search<\/a>/);
        assert.match(html, /<a href="\/events\.ics\?attendance=online">/);
        const paris = await (await server.fetch(`${server.url}/?q=rust+talks+in+Paris`)).text();
        assert.match(paris, /<a href="\/alerts\/new\?q=rust\+talks&amp;city=Paris">/);
      });

      await t.step("words read as written are matched as written", async () => {
        assert.deepEqual(idsOf(await find("events", { interpret: "false" })), []);
      });
    } finally {
      await server.close();
    }
  });
}
