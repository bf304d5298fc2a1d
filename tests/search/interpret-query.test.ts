/**
 * Queries that name a place, a way of attending or a time: read as filters from the events' own
 * cities and countries, reported, never over an explicit filter, never at a topic's expense.
 */
import assert from "node:assert/strict";
import { EventInput } from "../../shared/event-schema.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { interpretQuery } from "../../server/search/interpret-query.ts";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { sampleEvent } from "../support/events.ts";

const NOW = new Date("2030-05-14T12:00:00Z");

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a query's place, attendance and time become filters`, async (t) => {
    const db = await openTestDatabase(kind);
    try {
      const writer = await insertWriterKey(db.sql, "interpret");
      await upsertEvents(
        db.sql,
        writer,
        [
          sampleEvent(1, { title: "Rust meetup", city: "Berlin", country: "Germany" }),
          sampleEvent(2, { title: "Rust night", city: "New York", country: "U.S.A." }),
          sampleEvent(3, { title: "Coffee and code", city: "Java", country: "Indonesia" }),
          sampleEvent(4, { title: "Java conference", topics: ["Java"], city: "Lisbon" }),
        ].map((e) => EventInput.parse(e)),
      );
      const read = (q: string, filters = {}) =>
        interpretQuery(db.sql, { q, filters, now: NOW, timeZone: "Europe/Berlin" });

      await t.step("a city of the events, named with or without 'in'", async () => {
        const berlin = await read("rust meetups in Berlin");
        assert.deepEqual(berlin.interpreted, { city: "Berlin" });
        assert.equal(berlin.q, "rust meetups");
        assert.equal(berlin.filters.city, "Berlin");
        const bare = await read("new york rust");
        assert.deepEqual(bare.interpreted, { ranked: { city: "New York" } });
        assert.equal(bare.q, "new york rust", "a bare place stays a word and only ranks");
        const comma = await read("rust meetups Berlin, Germany");
        assert.deepEqual(comma.interpreted, { city: "Berlin" });
        assert.equal(comma.q, "rust meetups");
        assert.deepEqual((await read("rust talks in germany")).interpreted, {
          country: "Germany",
        });
      });

      await t.step("a place no event has stays a word", async () => {
        const paris = await read("rust in Paris");
        assert.deepEqual(paris.interpreted, {});
        assert.equal(paris.q, "rust in paris");
      });

      await t.step("an explicit filter wins over the words", async () => {
        const explicit = await read("rust in Berlin", { city: "Lisbon" });
        assert.deepEqual(explicit.interpreted, {});
        assert.equal(explicit.filters.city, "Lisbon");
        const from = new Date("2030-01-01T00:00:00Z");
        const timed = await read("rust next month", { from });
        assert.deepEqual(timed.interpreted, {});
        assert.equal(timed.filters.from, from);
      });

      await t.step("a place that is also a topic stays a topic unless 'in' names it", async () => {
        const topic = await read("java conference");
        assert.deepEqual(topic.interpreted, {}, "a topic is not even reported as ranked");
        assert.equal(topic.filters.city, undefined);
        assert.deepEqual((await read("coffee in java")).interpreted, { city: "Java" });
      });

      await t.step("a place alone is searched as words", async () => {
        assert.deepEqual((await read("Berlin")).interpreted, {});
      });

      await t.step("online, in person and a period in the asker's zone", async () => {
        const online = await read("online rust workshops next month");
        assert.equal(online.q, "rust workshops");
        assert.deepEqual(online.interpreted, {
          attendance: "online",
          when: "next_month",
          from: "2030-05-31T22:00:00.000Z",
          to: "2030-06-30T21:59:59.999Z",
        });
        assert.equal(online.filters.attendance, "online");
        assert.equal((await read("in-person rust workshop")).filters.attendance, "in_person");
        assert.equal((await read("rust meetups online")).filters.attendance, "online");
      });

      await t.step("a word that could filter elsewhere only ranks", async () => {
        const safety = await read("online safety");
        assert.deepEqual(safety.interpreted, { ranked: { attendance: "online" } });
        assert.equal(safety.q, "online safety");
        const today = await read("today i learned");
        assert.equal(today.filters.from, undefined);
        assert.equal(today.q, "today i learned");
      });
    } finally {
      await db.close();
    }
  });
}

/** [query, what the events hold as text or name, the kind of word] */
const NEVER_FILTERS: [string, string, string][] = [
  ["phoenix liveview", "Phoenix LiveView workshop", "city"],
  ["jakarta ee", "Jakarta EE in practice", "city"],
  ["reading group", "Papers reading group", "city"],
  ["virtual reality meetup", "Virtual reality meetup", "attendance"],
  ["remote sensing", "Remote sensing with satellites", "attendance"],
  ["online safety", "Online safety for children", "attendance"],
  ["today i learned", "Today I learned: lightning talks", "period"],
];

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a phrase events hold as text is never a filter`, async (t) => {
    const db = await openTestDatabase(kind);
    try {
      const writer = await insertWriterKey(db.sql, "phrases");
      const later = (days: number) => new Date(NOW.getTime() + days * 86_400_000).toISOString();
      await upsertEvents(
        db.sql,
        writer,
        [
          ...NEVER_FILTERS.map(([, title], i) =>
            sampleEvent(10 + i, { title, city: "Berlin", starts_at: later(400) })
          ),
          // Cities named like the subjects, so that the words could be read as places.
          sampleEvent(1, { title: "Desert meetup", city: "Phoenix", starts_at: later(3) }),
          sampleEvent(2, { title: "Island meetup", city: "Jakarta", starts_at: later(3) }),
          sampleEvent(3, { title: "Thames meetup", city: "Reading", starts_at: later(3) }),
        ].map((e) => EventInput.parse(e)),
      );
      for (const [q, title, what] of NEVER_FILTERS) {
        await t.step(`"${q}" (${what}) finds "${title}"`, async () => {
          const read = await interpretQuery(db.sql, { q, filters: {}, now: NOW });
          assert.equal(read.q, q, "every word stays");
          assert.deepEqual(
            [read.filters.city, read.filters.attendance, read.filters.from],
            [undefined, undefined, undefined],
          );
          assert.equal(read.interpreted.city ?? read.interpreted.attendance, undefined);
          assert.equal(read.interpreted.when, undefined);
        });
      }
      await t.step("the same words read as filters where they read as one", async () => {
        const inPhoenix = await interpretQuery(db.sql, {
          q: "meetup in phoenix",
          filters: {},
          now: NOW,
        });
        assert.deepEqual(inPhoenix.interpreted, { city: "Phoenix" });
        const online = await interpretQuery(db.sql, { q: "online events", filters: {}, now: NOW });
        assert.equal(online.filters.attendance, "online");
        assert.equal(online.q, "events");
        const weekend = await interpretQuery(db.sql, {
          q: "meetups this weekend",
          filters: {},
          now: NOW,
        });
        assert.equal(weekend.interpreted.when, "this_weekend");
      });
    } finally {
      await db.close();
    }
  });
}
