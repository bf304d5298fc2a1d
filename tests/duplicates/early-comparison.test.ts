/**
 * On the embedded database a pushed batch is compared with the key index, on the index's thread,
 * while it is stored (server/duplicates/early-comparison.ts): detection then finds what it finds comparing in the
 * transaction, and compares again when the comparison no longer holds (a changed listing, an index
 * that moved before the lock).
 */
import assert from "node:assert/strict";
import type { Sql } from "postgres";
import { createTestDatabase } from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { openDatabase } from "../../server/db/connect.ts";
import { upsertEvents, type Writer } from "../../server/db/events.ts";
import { DuplicateDetector } from "../../server/duplicates/duplicate-detector.ts";
import type { EarlyComparison } from "../../server/duplicates/early-comparison.ts";
import { EventInput, type EventRecord } from "../../shared/event-schema.ts";
import { busyFortnight, linksOf, QUARZOCON } from "./support/busy-fortnight.ts";

const parsed = (events: Record<string, unknown>[]) => events.map((e) => EventInput.parse(e));

/** On a new embedded database, with two contributors and a detector in the batch's transaction. */
async function withDetector(
  test: (sql: Sql, detector: DuplicateDetector, writers: [Writer, Writer]) => Promise<void>,
) {
  const location = await createTestDatabase("pglite");
  const db = await openDatabase(location);
  try {
    const { sql } = db;
    const writers: [Writer, Writer] = [
      await insertWriterKey(sql, "alice"),
      await insertWriterKey(sql, "bob"),
    ];
    await test(sql, new DuplicateDetector(sql, { afterCommit: false }), writers);
  } finally {
    await db.close();
    await location.drop();
  }
}

/**
 * Stores `events` as a push does: compared while stored when the detector offers it (or with
 * `early`, a comparison started before), detected in the transaction. Returns the comparison.
 */
async function push(
  sql: Sql,
  detector: DuplicateDetector,
  writer: Writer,
  events: EventRecord[],
  early = detector.beforeStoring(writer.contributorId, events),
): Promise<EarlyComparison | null> {
  const { batch, detected } = await sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    const { changed } = await upsertEvents(tx, writer, events);
    const batch = { contributorId: writer.contributorId, changed };
    return { batch, detected: await detector.inBatch(tx, batch, early) };
  });
  detector.committed(batch, detected);
  return early;
}

/** Another event, which nothing else here matches. */
const ELSEWHERE = {
  external_id: "b-0",
  platform: "other",
  source_url: "https://elsewhere.example.org/",
  title: "Elsewhere Days",
  starts_at: "2034-01-20T09:00:00Z",
  city: "Oslo",
};

const groupedCount = async (sql: Sql) =>
  (await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM event_group_members`)[0].n;

/** `e` `days` days later. */
function later(e: EventRecord, days: number): EventRecord {
  const by = (iso: string) => new Date(Date.parse(iso) + days * 86_400_000).toISOString();
  return { ...e, starts_at: by(e.starts_at), ends_at: e.ends_at ? by(e.ends_at) : e.ends_at };
}

Deno.test("[pglite] batches compared while stored find the links detection in the transaction finds", async () => {
  const all = busyFortnight();
  const batches: { who: number; events: EventRecord[] }[] = [];
  for (let i = 0; i < all.length; i += 12) {
    for (const who of [0, 1]) {
      const events = all.slice(i, i + 12).filter((l) => l.who === who).map((l) => l.event);
      if (events.length > 0) batches.push({ who, events: parsed(events) });
    }
  }
  // New listings, then every other batch again three days later: changed listings, split apart.
  const moved = batches.filter((_, i) => i % 2 === 0).map((b) => ({
    ...b,
    events: b.events.map((e) => later(e, 3)),
  }));
  const linked: string[][][] = [];
  for (const early of [true, false]) {
    await withDetector(async (sql, detector, writers) => {
      const links: string[][] = [];
      for (const pass of [batches, moved]) {
        const used: boolean[] = [];
        for (const { who, events } of pass) {
          const comparison = await push(
            sql,
            detector,
            writers[who],
            events,
            early ? undefined : null,
          );
          used.push(comparison?.used ?? false);
        }
        // The first batch names the index to the detector, which then compares each early.
        assert.deepEqual(
          used.slice(pass === batches ? 1 : 0),
          pass.map(() => early).slice(pass === batches ? 1 : 0),
        );
        links.push(await linksOf(sql));
      }
      linked.push(links);
    });
  }
  assert.ok(linked[0][0].length > 20, `${linked[0][0].length} links`);
  assert.notDeepEqual(linked[0][1], linked[0][0], "moving listings changed some links");
  assert.deepEqual(linked[0], linked[1]);
});

Deno.test("[pglite] a batch moving a stored listing is compared while stored; its link goes", async () => {
  await withDetector(async (sql, detector, [alice, bob]) => {
    await push(sql, detector, bob, parsed([{ ...QUARZOCON, external_id: "b-0" }]));
    await push(sql, detector, alice, parsed([QUARZOCON]));
    assert.equal(await groupedCount(sql), 2);
    // Alice moves her listing a month later and adds one.
    const early = await push(sql, detector, alice, [
      ...parsed([{ ...QUARZOCON, starts_at: "2034-06-10T09:00:00Z" }]),
      ...parsed([{ ...ELSEWHERE, external_id: "a-2" }]),
    ]);
    assert.equal(early?.used, true);
    assert.equal(await groupedCount(sql), 0);
  });
});

Deno.test("[pglite] a batch changing a listing only where the matcher does not read is compared again", async () => {
  await withDetector(async (sql, detector, [alice, bob]) => {
    await push(sql, detector, bob, parsed([{ ...QUARZOCON, external_id: "b-0" }]));
    await push(sql, detector, alice, parsed([QUARZOCON]));
    // A new description: detection keeps the listing's keys and links as they are.
    const early = await push(sql, detector, alice, [
      ...parsed([{ ...QUARZOCON, description: "Two days of quartz." }]),
      ...parsed([{ ...ELSEWHERE, external_id: "a-2" }]),
    ]);
    assert.equal(early?.used, false);
    assert.equal(await groupedCount(sql), 2);
    const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM event_links`;
    assert.equal(n, 1);
  });
});

Deno.test("[pglite] a comparison is dropped when the index moves before the batch's lock", async () => {
  await withDetector(async (sql, detector, [alice, bob]) => {
    await push(sql, detector, bob, parsed([ELSEWHERE]));
    // Alice's listing compared first (no copy yet), then bob's copy stored and detected.
    const events = parsed([QUARZOCON]);
    const early = detector.beforeStoring(alice.contributorId, events)!;
    await push(
      sql,
      detector,
      bob,
      parsed([{ ...QUARZOCON, external_id: "b-1", platform: "luma" }]),
    );
    await push(sql, detector, alice, events, early);
    assert.equal(early.used, false, "compared again under the lock");
    assert.equal(await groupedCount(sql), 2, "alice's listing found bob's copy");
  });
});
