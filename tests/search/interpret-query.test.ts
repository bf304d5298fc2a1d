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
        assert.deepEqual((await read("new york rust")).interpreted, { city: "New York" });
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
        assert.deepEqual(topic.interpreted, {});
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
        assert.equal((await read("in-person rust")).filters.attendance, "in_person");
      });
    } finally {
      await db.close();
    }
  });
}
