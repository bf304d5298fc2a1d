/**
 * Listing and searching from an instant: events under way then come first (they started
 * earlier), then events starting at or after it, soonest first; events over by then never show.
 * Those under way are found by their span and the upcoming ones from the start index
 * (server/db/start-order.ts): these tests pin the seam between the two, with and without words,
 * city and cursor.
 */
import assert from "node:assert/strict";
import type { Sql } from "postgres";
import { EventInput } from "../../shared/event-schema.ts";
import { upsertEvents } from "../../server/db/events.ts";
import type { EventFilters } from "../../server/db/event-filters.ts";
import { listEvents } from "../../server/db/event-reads.ts";
import { countEvents } from "../../server/db/event-counts.ts";
import { rankByText } from "../../server/search/ranked-events.ts";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { sampleEvent } from "../support/events.ts";

const AT = new Date("2031-05-10T12:00:00Z");
const hours = (h: number) => new Date(AT.getTime() + h * 3_600_000).toISOString();

/** [external_id, city, starts (hours from AT), ends (hours from AT, or null)] */
const EVENTS: [string, string, number, number | null][] = [
  ["month-long-course", "Berlin", -24 * 30, 24 * 5],
  ["ended-before", "Berlin", -5, -1],
  ["no-end-before", "Berlin", -1, null],
  ["instant-before", "Berlin", -2, -2],
  ["ends-at-the-instant", "Paris", -3, 0],
  ["started-this-morning", "Berlin", -2, 6],
  ["starts-at-the-instant", "Berlin", 0, 2],
  ["no-end-after", "Paris", 1, null],
  ["tomorrow", "Berlin", 24, 26],
  ["next-week", "Paris", 24 * 7, 24 * 7 + 2],
];

async function seed(sql: Sql): Promise<void> {
  const writer = await insertWriterKey(sql, "start-order");
  await upsertEvents(
    sql,
    writer,
    EVENTS.map(([id, city, starts, ends]) =>
      EventInput.parse(sampleEvent(0, {
        external_id: id,
        title: `Rust workshop ${id}`,
        city,
        starts_at: hours(starts),
        ...(ends === null ? {} : { ends_at: hours(ends) }),
      }))
    ),
  );
}

const listed = async (sql: Sql, filters: EventFilters, limit = 20) =>
  (await listEvents(sql, filters, { limit })).events.map((e) => e.external_id);

/** Every page of a listing, by cursor, `size` at a time. */
async function pages(sql: Sql, filters: EventFilters, size: number): Promise<string[][]> {
  const all: string[][] = [];
  let after;
  do {
    const page = await listEvents(sql, filters, { limit: size, after });
    all.push(page.events.map((e) => e.external_id));
    after = page.next ?? undefined;
  } while (after);
  return all;
}

const NOT_OVER = [
  "month-long-course",
  "ends-at-the-instant",
  "started-this-morning",
  "starts-at-the-instant",
  "no-end-after",
  "tomorrow",
  "next-week",
];

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a listing from an instant starts with the events under way`, async (t) => {
    const db = await openTestDatabase(kind);
    try {
      await seed(db.sql);
      await t.step("under way first, in start order, then upcoming; over never", async () => {
        assert.deepEqual(await listed(db.sql, { from: AT }), NOT_OVER);
        assert.deepEqual(await countEvents(db.sql, { from: AT }, 100), {
          count: NOT_OVER.length,
          capped: false,
        });
      });

      await t.step("pages by cursor cross from under way to upcoming once each", async () => {
        for (const size of [1, 2, 3]) {
          const all = await pages(db.sql, { from: AT }, size);
          assert.deepEqual(all.flat(), NOT_OVER, `pages of ${size}`);
          assert.ok(all.every((page) => page.length <= size));
        }
      });

      await t.step("a city filter applies to both sets", async () => {
        assert.deepEqual(await listed(db.sql, { from: AT, city: "berlin" }), [
          "month-long-course",
          "started-this-morning",
          "starts-at-the-instant",
          "tomorrow",
        ]);
        assert.deepEqual((await pages(db.sql, { from: AT, city: "BERLIN" }, 1)).flat(), [
          "month-long-course",
          "started-this-morning",
          "starts-at-the-instant",
          "tomorrow",
        ]);
      });

      await t.step("`to` bounds both sets by their start", async () => {
        assert.deepEqual(await listed(db.sql, { from: AT, to: new Date(hours(0)) }), [
          "month-long-course",
          "ends-at-the-instant",
          "started-this-morning",
          "starts-at-the-instant",
        ]);
      });

      await t.step("words list and rank the same events", async () => {
        assert.deepEqual(await listed(db.sql, { from: AT, q: "rust workshop" }), NOT_OVER);
        const hits = await rankByText(db.sql, "rust workshop", { from: AT, city: "Paris" }, 20);
        assert.deepEqual(hits.map((h) => h.event.external_id).sort(), [
          "ends-at-the-instant",
          "next-week",
          "no-end-after",
        ]);
      });

      await t.step("a later instant leaves out what ended before it", async () => {
        const later = new Date(AT.getTime() + 25 * 3_600_000);
        assert.deepEqual(await listed(db.sql, { from: later }), [
          "month-long-course",
          "tomorrow",
          "next-week",
        ]);
      });
    } finally {
      await db.close();
    }
  });
}
