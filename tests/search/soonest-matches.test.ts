/**
 * The soonest matches of a text tier are found by walking events in start order, walking on when
 * the matches seen say the rest are near, and asking the GIN index for the rest in a span of start
 * times or beyond it (server/db/soonest-matches.ts). Whichever way, the answer is the soonest
 * matches in start order: checked here against a plain sort, for words in every event down to
 * words in 13 of 8,000, with and without a cursor, with starts spread out and with a thousand
 * events starting at each instant (where the rest are sized in rows, not in time), in every city
 * and in one, and after a short first walk.
 */
import assert from "node:assert/strict";
import { EventInput } from "../../shared/event-schema.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { filterConditions } from "../../server/db/event-filters.ts";
import { soonestMatches } from "../../server/db/soonest-matches.ts";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { sampleEvent } from "../support/events.ts";

const EVENTS = 8_000;

type Filters = Parameters<typeof filterConditions>[1];
const HOUR = 3_600_000;

/**
 * Words of event `i`: one in every event, some in one in 5, 10, 50 and 600, one in bursts of 30
 * every 1,000, one that grows rare; "absent" in none.
 */
function titleOf(i: number): string {
  const words = ["everyone"];
  if (i % 10 === 3) words.push("tenth");
  if (i % 50 === 7) words.push("fiftieth");
  if (i % 600 === 599) words.push("seldom");
  if (i % 5 === 0) words.push("clustered");
  if (i % 1_000 < 30) words.push("bursty");
  // Common among the first 1,000 events of the shuffled order (one instant, when starts are
  // shared), rare after: a share seen at first that overstates the rest.
  if ((i * 7_919) % EVENTS < 1_000 ? i % 20 === 1 : i % 200 === 1) words.push("waning");
  return `${words.join(" ")} event ${i}`;
}

/** Hours after the first start: clustered events after 5,000 hours, most others before. */
const spread = (i: number) => i % 5 === 0 ? 5_000 + i : i;
/** Eight instants a day apart, 1,000 events at each (as a feed of all-day events would have). */
const shared = (i: number) => 24 * Math.floor(((i * 7_919) % EVENTS) / 1_000);

for (const kind of testBackends()) {
  for (
    const [starts, hoursOf] of [
      ["spread starts", spread],
      ["starts shared by a thousand events", shared],
    ] as const
  ) {
    Deno.test(
      `[${kind}] the soonest matches come in start order, common or rare (${starts})`,
      (t) => checkSoonest(t, kind, hoursOf),
    );
  }
}

async function checkSoonest(
  t: Deno.TestContext,
  kind: ReturnType<typeof testBackends>[number],
  hoursOf: (i: number) => number,
): Promise<void> {
  const db = await openTestDatabase(kind);
  try {
    const writer = await insertWriterKey(db.sql, "soonest");
    const start = Date.now() + 24 * HOUR;
    // Stored in a shuffled order, so that start order is not the order on disk.
    const order = Array.from({ length: EVENTS }, (_, i) => (i * 7_919) % EVENTS);
    for (let first = 0; first < EVENTS; first += 300) {
      await upsertEvents(
        db.sql,
        writer,
        order.slice(first, first + 300).map((i) =>
          EventInput.parse(sampleEvent(i, {
            title: titleOf(i),
            starts_at: new Date(start + hoursOf(i) * HOUR).toISOString(),
            city: i % 7 === 0 ? "Lisbon" : "Porto",
          }))
        ),
      );
    }
    await db.sql`ANALYZE events`;

    const sorted = async (match: string, count: number, filters: Filters, after?: string) =>
      (await db.sql<{ id: string }[]>`
        SELECT e.id FROM events e
        WHERE ${filterConditions(db.sql, filters)} AND e.search_vector @@ ${match}::tsquery
          AND (${after ?? null}::uuid IS NULL
               OR (e.starts_at, e.id) > (SELECT starts_at, id FROM events WHERE id = ${
        after ?? null
      }::uuid))
        ORDER BY e.starts_at, e.id LIMIT ${count}`).map((r) => r.id);

    for (
      const word of [
        "everyone",
        "tenth",
        "fiftieth",
        "seldom",
        "clustered",
        "bursty",
        "waning",
        "absent",
      ]
    ) {
      await t.step(`"${word}"`, async () => {
        // The word as the index holds it ("everyone" is 'everyon').
        const [{ match }] = await db.sql<{ match: string }[]>`
          SELECT plainto_tsquery('english', ${word})::text AS match`;
        // Within a city too: that walk's plan is kept (server/db/soonest-matches.ts), so past
        // the fifth run it is the plan the connection settled on that answers. And with
        // statistics that expect the word far rarer than it is: a short first walk, then on.
        const ways: { filters: Filters }[] = [
          { filters: {} },
          { filters: { city: "lisbon" } },
        ];
        for (const { filters } of ways) {
          for (const count of [1, 21, 100]) {
            const expected = await sorted(match, count, filters);
            assert.equal(expected.length === 0, word === "absent");
            const found = await soonestMatches(db.sql, { match, filters, count });
            assert.deepEqual(found.map((m) => m.id), expected, `${count} wanted`);
            if (expected.length < 2) continue;
            // From the middle of that answer on.
            const middle = found[Math.floor(found.length / 2)];
            const later = await soonestMatches(db.sql, {
              match,
              filters,
              count,
              after: { starts_at: middle.starts_at.toISOString(), id: middle.id },
            });
            assert.deepEqual(
              later.map((m) => m.id),
              await sorted(match, count, filters, middle.id),
              `${count} wanted after ${middle.id}`,
            );
          }
        }
      });
    }
  } finally {
    await db.close();
  }
}
