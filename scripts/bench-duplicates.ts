/**
 * What duplicate detection costs ingestion: 100-event batches stored with and without detection
 * (the same transaction ingest-batch.ts runs), on a database already holding --size events from
 * two contributors (each half of them, detection run on all), alternating rounds so that both
 * see the same database and load. Prints events/s both ways, the cost in percent, and the load
 * average.
 *
 *   TEST_DATABASE_URL=postgres://... deno run -A scripts/bench-duplicates.ts [--size 100000]
 *     [--batches 20] [--rounds 3] [--backend pglite|postgres]
 */
import { parseArgs } from "node:util";
import type { Sql } from "postgres";
import { EventBatch, type EventRecord } from "../shared/event-schema.ts";
import { upsertEvents, type Writer } from "../server/db/events.ts";
import { detectDuplicates } from "../server/duplicates/detect-duplicates.ts";
import { openDatabase } from "../server/db/connect.ts";
import { listEvents } from "../server/db/event-reads.ts";
import { countEvents } from "../server/db/event-counts.ts";
import { createTestDatabase } from "../dev-support/databases.ts";
import { insertWriterKey } from "../dev-support/writer-key.ts";
import { realisticEvents } from "./support/realistic-events.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    size: { type: "string", default: "100000" },
    batches: { type: "string", default: "20" },
    rounds: { type: "string", default: "3" },
    backend: { type: "string", default: "postgres" },
  },
});
const size = Number(values.size);
const batches = Number(values.batches);
const rounds = Number(values.rounds);
const kind = values.backend === "pglite" ? "pglite" : "postgres";

const records = (first: number, count: number): EventRecord[] =>
  EventBatch.parse({ events: realisticEvents(first, count) }).events;

/** Ten of the events from `first`, as another contributor words them. */
function relisted(first: number, count: number): EventRecord[] {
  return records(first, count).map((e) => ({
    ...e,
    external_id: `${e.external_id}-again`,
    source_url: `${e.source_url}/again`,
    title: `${e.title} Conference`,
    starts_at: new Date(Date.parse(e.starts_at) + 3_600_000).toISOString(),
    ends_at: e.ends_at,
  }));
}

async function store(sql: Sql, writer: Writer, events: EventRecord[], detect: boolean) {
  await sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    const outcome = await upsertEvents(tx, writer, events);
    if (detect) await detectDuplicates(tx, outcome.changed);
  });
}

/** First pages of listings and a bounded count, collapsed and not: p50 of 30 runs each. */
async function timeListings(sql: Sql): Promise<void> {
  const from = new Date(Date.UTC(2027, 0, 1));
  for (const collapse of [true, false]) {
    for (
      const [name, filters] of [
        ["upcoming", { from }],
        ["Berlin", { from, city: "Berlin" }],
        ["text 'rust'", { from, q: "rust" }],
      ] as const
    ) {
      const times: number[] = [];
      for (let i = 0; i < 30; i++) {
        const t = performance.now();
        await listEvents(sql, { ...filters, collapse }, { limit: 20 });
        await countEvents(sql, { ...filters, collapse }, 1000);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      console.log(
        `listing ${name} + count, collapse=${collapse}: p50 ${times[15].toFixed(1)} ms`,
      );
    }
  }
}

const location = await createTestDatabase(kind);
const db = await openDatabase(location);
try {
  const writers = [
    await insertWriterKey(db.sql, "bench-a"),
    await insertWriterKey(db.sql, "bench-b"),
  ];
  const loadStarted = performance.now();
  for (let i = 0; i < size; i += 100) {
    const writer = writers[(i / 100) % 2];
    // The second contributor re-lists a tenth of the first one's last events in its own words
    // (an hour later, another address, "Conference" spelt out), so that groups exist.
    const batch = writer === writers[1] && i >= 200
      ? [...records(i, 90), ...relisted(i - 100, 10)]
      : records(i, 100);
    await store(db.sql, writer, batch, true);
    if (i % 10_000 === 0 && i > 0) {
      console.log(`loaded ${i} events, ${((performance.now() - loadStarted) / 1000).toFixed(0)} s`);
    }
  }
  await db.sql`ANALYZE`;
  const [{ grouped }] = await db.sql<{ grouped: number }[]>`
    SELECT count(*)::int AS grouped FROM event_group_members`;
  console.log(
    `${kind}: ${size} events loaded (${grouped} in groups) in ` +
      `${((performance.now() - loadStarted) / 1000).toFixed(0)} s`,
  );
  const rate = { on: [] as number[], off: [] as number[] };
  let next = 10_000_000;
  for (let r = 0; r < rounds; r++) {
    for (const detect of [false, true]) {
      const work = Array.from({ length: batches }, () => {
        const b = records(next, 100);
        next += 100;
        return b;
      });
      const t = performance.now();
      for (let i = 0; i < work.length; i++) await store(db.sql, writers[i % 2], work[i], detect);
      const perSecond = (batches * 100) / ((performance.now() - t) / 1000);
      rate[detect ? "on" : "off"].push(perSecond);
      console.log(
        `round ${r + 1} detection ${detect ? "on " : "off"}: ${perSecond.toFixed(0)} events/s`,
      );
    }
  }
  await timeListings(db.sql);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const on = median(rate.on);
  const off = median(rate.off);
  console.log(
    `\n${kind}, ${size} events: detection off ${off.toFixed(0)} events/s, on ${on.toFixed(0)} ` +
      `events/s (medians of ${rounds}): detection costs ${((1 - on / off) * 100).toFixed(1)}% ` +
      `of throughput; load average ${Deno.loadavg().map((x) => x.toFixed(2)).join(" ")}`,
  );
} finally {
  await db.close();
  await location.drop();
}
