/**
 * The lookup keys held in memory (server/db/key-index.ts): an index built from the stored sets
 * finds what the index that wrote them found, servers sharing a PostgreSQL database learn each
 * other's sets, and a transaction that rolls back after writing sets leaves the index with the
 * sets that are stored.
 */
import assert from "node:assert/strict";
import type { Sql } from "postgres";
import {
  createTestDatabase,
  type DatabaseLocation,
  testBackends,
} from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { type Database, type DatabaseKind, openDatabase } from "../../server/db/connect.ts";
import { upsertEvents, type Writer } from "../../server/db/events.ts";
import { redetectionRowsOf } from "../../server/db/duplicate-rules.ts";
import { type IndexedSet, KeyIndex, SESSION_SETTING } from "../../server/db/key-index.ts";
import { type KeyIndexClient, openKeyIndex } from "../../server/db/key-index-thread.ts";
import { pruneKeyIndex } from "../../server/db/indexed-candidates.ts";
import { lockDuplicates } from "../../server/db/duplicate-links.ts";
import { detectStored } from "../../server/duplicates/detect-stored.ts";
import { EventInput } from "../../shared/event-schema.ts";
import { busyFortnight, linksOf, QUARZOCON } from "./support/busy-fortnight.ts";

/** Events as the API takes them, parsed as it parses them. */
const parsed = (events: Record<string, unknown>[]) => events.map((e) => EventInput.parse(e));

/** Detects the stored events `ids`, in `tx`: as new listings, or (`inserted` false) changed ones. */
async function detect(tx: Sql, ids: string[], inserted = true) {
  const rows = (await redetectionRowsOf(tx, ids)).map((r) => ({ ...r, inserted }));
  await detectStored(tx, rows, { recompare: false, vectors: () => false });
}

/** Detects `batches` of stored events in turn, as new listings, each in a transaction. */
async function detectInTurn(sql: Sql, batches: string[][]) {
  for (const ids of batches) await sql.begin((tx) => detect(tx as unknown as Sql, ids));
}

const forgetDetection = (sql: Sql) =>
  sql`TRUNCATE event_links, event_group_members, event_key_sets`;

/** Runs `test` on a new database whose session names a new key index, with two contributors. */
async function withSessionIndex(
  kind: DatabaseKind,
  test: (sql: Sql, index: KeyIndexClient, writers: [Writer, Writer]) => Promise<void>,
) {
  const location = await createTestDatabase(kind);
  const db = await openDatabase(location);
  const keys = openKeyIndex({ shared: false });
  try {
    const { sql } = db;
    await sql`SELECT set_config(${SESSION_SETTING}, ${keys.name}, false)`;
    await test(sql, keys.index, [
      await insertWriterKey(sql, "alice"),
      await insertWriterKey(sql, "bob"),
    ]);
  } finally {
    keys.close();
    await db.close();
    await location.drop();
  }
}

/** Stores busyFortnight's listings without detection, in batches of one contributor: their ids. */
async function storeFortnight(sql: Sql, writers: Writer[]): Promise<string[][]> {
  const all = busyFortnight();
  const batches: string[][] = [];
  for (let i = 0; i < all.length; i += 25) {
    for (const who of [0, 1]) {
      const events = all.slice(i, i + 25).filter((l) => l.who === who).map((l) => l.event);
      if (events.length === 0) continue;
      const outcome = await upsertEvents(sql, writers[who], parsed(events));
      batches.push(outcome.changed.map((c) => c.id));
    }
  }
  return batches;
}

/** Runs `test` on two servers' connections to a new PostgreSQL database, with two contributors. */
async function withTwoServers(
  test: (
    servers: [Database, Database],
    writers: [Writer, Writer],
    location: DatabaseLocation,
  ) => Promise<void>,
) {
  const location = await createTestDatabase("postgres");
  const servers: [Database, Database] = [
    await openDatabase(location),
    await openDatabase(location),
  ];
  try {
    const { sql } = servers[0];
    await test(
      servers,
      [await insertWriterKey(sql, "alice"), await insertWriterKey(sql, "bob")],
      location,
    );
  } finally {
    for (const server of servers) await server.close();
    await location.drop();
  }
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] an index built from the stored sets finds what the index that wrote them found`, async () => {
    const location = await createTestDatabase(kind);
    const db = await openDatabase(location);
    const indexes = [openKeyIndex({ shared: false }), openKeyIndex({ shared: false })];
    const useIndex = (sql: Sql, i: number) =>
      sql`SELECT set_config(${SESSION_SETTING}, ${indexes[i].name}, false)`;
    try {
      const { sql } = db;
      const batches = await storeFortnight(sql, [
        await insertWriterKey(sql, "alice"),
        await insertWriterKey(sql, "bob"),
      ]);
      // Every batch through the index the database's session named from the start.
      await detectInTurn(sql, batches);
      const throughOne = await linksOf(sql);
      assert.ok(throughOne.length >= 20, `pairs were found: ${throughOne.length}`);

      // Half the batches through a new index, the rest through another, built from the sets
      // the first wrote.
      await forgetDetection(sql);
      const half = Math.floor(batches.length / 2);
      await useIndex(sql, 0);
      await detectInTurn(sql, batches.slice(0, half));
      await useIndex(sql, 1);
      await detectInTurn(sql, batches.slice(half));
      assert.equal(await indexes[1].index.size(), batches.flat().length);
      assert.deepEqual(await linksOf(sql), throughOne);
    } finally {
      for (const index of indexes) index.close();
      await db.close();
      await location.drop();
    }
  });

  if (kind === "postgres") {
    Deno.test("[postgres] servers sharing a database each learn the sets the others wrote", async () => {
      await withTwoServers(async (servers, writers, location) => {
        const [a, b] = servers.map((s) => s.sql);
        const batches = await storeFortnight(a, writers);
        // Each batch detected by one server or the other, in turn.
        for (const [i, ids] of batches.entries()) {
          await servers[i % 2].sql.begin((tx) => detect(tx as unknown as Sql, ids));
        }
        const alternating = await linksOf(a);
        await forgetDetection(a);
        const alone = await openDatabase(location);
        try {
          await detectInTurn(alone.sql, batches);
        } finally {
          await alone.close();
        }
        const throughOne = await linksOf(a);
        assert.ok(throughOne.length >= 20, `pairs were found: ${throughOne.length}`);
        assert.deepEqual(alternating, throughOne);

        // A listing one server renamed and moved is found where it is now by the other.
        await forgetDetection(a);
        const [id] = await storeAndDetect(a, writers[0], [QUARZOCON]);
        await storeAndDetect(b, writers[1], [{
          ...QUARZOCON,
          external_id: "b-1",
          platform: "luma",
        }]);
        const renamed = { ...QUARZOCON, title: "Ostrica Days", starts_at: "2034-09-10T09:00:00Z" };
        await a.begin(async (transaction) => {
          const tx = transaction as unknown as Sql;
          await upsertEvents(tx, writers[0], parsed([renamed]));
          await detect(tx, [id], false);
        });
        assert.deepEqual(await linksOf(a), [], "the moved listing left b-1");
        await storeAndDetect(b, writers[1], [
          { ...renamed, external_id: "b-2", platform: "meetup" },
          { ...QUARZOCON, external_id: "b-3", platform: "meetup" },
        ]);
        assert.deepEqual(await linksOf(a), ["a-1 b-2", "b-1 b-3"]);
      });
    });

    Deno.test("[postgres] a server prunes the listings deleted through another, once it learnt that one's sets", async () => {
      await withTwoServers(async ([a, b], [alice, bob]) => {
        await storeAndDetect(a.sql, alice, [QUARZOCON]);
        await storeAndDetect(b.sql, bob, [{ ...QUARZOCON, external_id: "b-1", platform: "luma" }]);
        // A listing b has not learnt of yet, and one it holds deleted: as many sets as stored.
        await storeAndDetect(a.sql, alice, [{
          ...QUARZOCON,
          external_id: "a-2",
          title: "Ostrica",
        }]);
        await a.sql`DELETE FROM events WHERE external_id = 'b-1'`;
        assert.equal(await pruneKeyIndex(b.sql), 1);
        assert.equal(await b.keyIndex.size(), 2);
      });
    });

    Deno.test("[postgres] a server builds its index without the duplicates lock, and learns the sets written after", async () => {
      await withTwoServers(async ([a, b], [alice, bob]) => {
        await storeAndDetect(a.sql, alice, [QUARZOCON]);
        // Another server holds the lock all through b's build.
        let release = () => {};
        const held = new Promise<void>((resolve) => release = resolve);
        const holding = a.sql.begin(async (tx) => {
          await lockDuplicates(tx as unknown as Sql);
          await held;
        });
        let timer: ReturnType<typeof setTimeout> | undefined;
        const waited = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("the build waited for the lock")), 10_000);
        });
        try {
          await Promise.race([b.keyIndex.prepare(b.sql), waited]);
        } finally {
          clearTimeout(timer);
          release();
          await holding;
        }
        assert.equal(await b.keyIndex.size(), 1);
        // A listing written after b's snapshot is found by b's next detection.
        const moved = { title: "Ostrica Days", starts_at: "2034-09-10T09:00:00Z" };
        await storeAndDetect(a.sql, alice, [{ ...QUARZOCON, ...moved, external_id: "a-2" }]);
        await storeAndDetect(b.sql, bob, [
          { ...QUARZOCON, ...moved, external_id: "b-2", platform: "meetup" },
        ]);
        assert.deepEqual(await linksOf(a.sql), ["a-2 b-2"]);
      });
    });
  }

  Deno.test(`[${kind}] sets written by a transaction that rolls back leave the stored ones in the index`, async () => {
    await withSessionIndex(kind, async (sql, index, [alice, bob]) => {
      const conference = QUARZOCON;
      // The same listing renamed and moved months later.
      const renamed = { ...conference, title: "Ostrica Days", starts_at: "2034-09-10T09:00:00Z" };
      const [id] = await storeAndDetect(sql, alice, [conference]);
      // Renamed and moved, then rolled back: the index holds both sets until it learns which.
      const rolledBack = new Error("rolled back");
      await sql.begin(async (transaction) => {
        const tx = transaction as unknown as Sql;
        await upsertEvents(tx, alice, parsed([renamed]));
        await detect(tx, [id], false);
        throw rolledBack;
      }).catch((err) => {
        if (err !== rolledBack) throw err;
      });
      // Bob's copy of the stored listing finds it, and the index then learns of the rollback.
      await storeAndDetect(sql, bob, [{ ...conference, external_id: "b-1", platform: "meetup" }]);
      assert.equal(await groupedCount(sql), 2);
      assert.equal(index.unsettled.length, 1, "only bob's transaction is unsettled");
      // A copy of the renamed listing finds nothing: that set was never stored.
      await storeAndDetect(sql, bob, [{ ...renamed, external_id: "b-2", platform: "meetup" }]);
      assert.equal(await groupedCount(sql), 2);

      // A deleted listing is held in the index until the next pruning: a copy pushed meanwhile
      // finds it there (its deletion committed and known) and links nothing to it.
      assert.equal(await pruneKeyIndex(sql), 0, "nothing to prune");
      await sql`DELETE FROM events WHERE external_id = 'b-2'`;
      await storeAndDetect(sql, bob, [{ ...conference, external_id: "b-3", platform: "luma" }]);
      assert.equal(index.unsettled.length, 1, "only the last transaction is unsettled");
      await storeAndDetect(sql, alice, [{ ...renamed, external_id: "a-2" }]);
      assert.equal(await groupedCount(sql), 3, "a-1, b-1 and b-3; a-2 alone");
      // Pruning drops the deleted listing's set, and only it.
      assert.equal(await pruneKeyIndex(sql), 1);
      assert.equal(await index.size(), 4);
    });
  });

  if (kind === "pglite") {
    Deno.test("[pglite] a change the index's thread cannot make takes it down, and the next detection builds the index again", async () => {
      await withSessionIndex(kind, async (sql, index, [alice, bob]) => {
        await storeAndDetect(sql, alice, [QUARZOCON]);
        assert.ok(index.built);
        // The sets of a comparison the thread never made: the index would miss them.
        index.writeCompared(12_345, [], "1");
        await assert.rejects(index.size(), /thread failed/);
        assert.equal(index.built, false);
        assert.deepEqual(index.unsettled, []);
        await storeAndDetect(sql, bob, [{ ...QUARZOCON, external_id: "b-1", platform: "meetup" }]);
        assert.equal(await groupedCount(sql), 2, "bob's copy found alice's listing");
        assert.equal(await index.size(), 2);
      });
    });
  }

  Deno.test(`[${kind}] a transaction detecting twice finds the listings it wrote first, as it wrote them`, async () => {
    await withSessionIndex(kind, async (sql, _index, [alice, bob]) => {
      const conference = QUARZOCON;
      const renamed = { ...conference, title: "Ostrica Days", starts_at: "2034-05-12T09:00:00Z" };
      const [id] = await storeAndDetect(sql, alice, [conference]);
      await sql.begin(async (transaction) => {
        const tx = transaction as unknown as Sql;
        await upsertEvents(tx, alice, parsed([renamed]));
        await detect(tx, [id], false);
        // Alice's set is this transaction's, not settled: her listing is read as it now stands.
        const copies = await upsertEvents(
          tx,
          bob,
          parsed([
            { ...renamed, external_id: "b-1", platform: "meetup" },
            { ...conference, external_id: "b-2", platform: "meetup" },
          ]),
        );
        await detect(tx, copies.changed.map((c) => c.id));
      });
      assert.deepEqual(await linksOf(sql), ["a-1 b-1"]);
    });
  });
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] writes of sets are numbered for other servers on PostgreSQL only`, async () => {
    const location = await createTestDatabase(kind);
    const db = await openDatabase(location);
    try {
      const { sql } = db;
      const batches = await storeFortnight(sql, [
        await insertWriterKey(sql, "alice"),
        await insertWriterKey(sql, "bob"),
      ]);
      const numbers = async () =>
        (await sql<{ sets: number; numbered: number; last: string | null }[]>`
          SELECT count(*)::int AS sets, count(written)::int AS numbered, max(written)::text AS last
          FROM event_key_sets`)[0];
      await detectInTurn(sql, batches);
      const first = await numbers();
      assert.equal(first.sets, batches.flat().length);
      // A batch's listings moved a day and detected again: each set rewritten.
      await sql`UPDATE events SET starts_at = starts_at + interval '1 day',
                  ends_at = ends_at + interval '1 day' WHERE id = ANY(${batches[0]}::uuid[])`;
      await sql.begin((tx) => detect(tx as unknown as Sql, batches[0], false));
      const again = await numbers();
      if (kind === "postgres") {
        assert.equal(first.numbered, first.sets);
        assert.equal(again.numbered, again.sets);
        assert.ok(BigInt(again.last!) > BigInt(first.last!), "a rewrite takes a new number");
      } else {
        assert.deepEqual([first.numbered, again.numbered], [0, 0]);
      }
    } finally {
      await db.close();
      await location.drop();
    }
  });
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] detection's transaction runs on generic plans on the embedded database only`, async () => {
    const location = await createTestDatabase(kind);
    const db = await openDatabase(location);
    try {
      const { sql } = db;
      const modeIn = async (tx: Sql) => {
        const [{ mode }] = await tx<{ mode: string }[]>`
          SELECT current_setting('plan_cache_mode') AS mode`;
        return mode;
      };
      const locked = await sql.begin(async (transaction) => {
        const tx = transaction as unknown as Sql;
        await lockDuplicates(tx);
        return await modeIn(tx);
      });
      // PGlite plans on the server's thread: plans made once, for that transaction only. A
      // PostgreSQL server plans for each run's parameters.
      assert.equal(locked, kind === "pglite" ? "force_generic_plan" : "auto");
      assert.equal(await modeIn(sql), "auto");
    } finally {
      await db.close();
      await location.drop();
    }
  });
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] detection's transaction runs without JIT compilation, and only it`, async () => {
    const location = await createTestDatabase(kind);
    const db = await openDatabase(location);
    try {
      const { sql } = db;
      const jit = (tx: Sql) => tx<{ jit: string }[]>`SELECT current_setting('jit') AS jit`;
      const [before] = await jit(sql);
      const [locked] = await sql.begin(async (transaction) => {
        const tx = transaction as unknown as Sql;
        await lockDuplicates(tx);
        return await jit(tx);
      });
      assert.equal(locked.jit, "off");
      const [after] = await jit(sql);
      assert.equal(after.jit, before.jit);
    } finally {
      await db.close();
      await location.drop();
    }
  });
}

/** A set of `eventId`'s keys as detection writes it, its listing at `degree` (99: none). */
function heldSet(
  eventId: string,
  days: { keys: number[]; firstDay: number; lastDay: number; degree: number },
  owner: string,
): IndexedSet {
  const { firstDay, lastDay, degree } = days;
  return {
    eventId,
    ...days,
    owner,
    platform: "meetup",
    row: {
      id: eventId,
      title: `${eventId} from day ${firstDay}`,
      source_url: `https://example.org/${eventId}`,
      starts_at: new Date(firstDay * 86_400_000),
      ends_at: new Date(lastDay * 86_400_000),
      city: null,
      country: null,
      latitude: degree === 99 ? null : degree + 0.5,
      longitude: degree === 99 ? null : 13,
      is_virtual: false,
      is_hybrid: null,
    },
  };
}

Deno.test("the index finds a listing's rows within a lookup's days and band, a key's first rows first", () => {
  const index = new KeyIndex();
  const set = (eventId: string, firstDay: number, lastDay: number, degree = 99) =>
    heldSet(
      eventId,
      { keys: [7, 8], firstDay, lastDay, degree },
      eventId === "b" ? "alice" : "bob",
    );
  const titleOf = (id: string) => index.storedRow(id)?.title ?? null;
  index.write([set("c", 100, 100), set("a", 96, 112), set("b", 100, 101, 52)], "1");
  // Until the writing transaction is known to have committed, its event may be as either left it.
  assert.equal(titleOf("c"), null);
  index.settle(new Map([["1", "committed"]]));
  assert.equal(titleOf("c"), "c from day 100");
  const find = (
    first: number,
    last: number,
    latitudes: [number, number] | null,
    fanout = 64,
    owner = "carol",
  ) =>
    Object.fromEntries(
      index.find(
        { keys: [7, 8, 9], reach: { first, last, latitudes }, owner, platform: "meetup" },
        fanout,
      ),
    );
  assert.deepEqual(find(100, 100, null), { a: 2, b: 2, c: 2 });
  // A long listing's later stretch is in reach; a short one ended before.
  assert.deepEqual(find(110, 111, null), { a: 2 });
  // The band drops the listing at degree 52, not those of no degree.
  assert.deepEqual(find(100, 100, [40.2, 42.4]), { a: 2, c: 2 });
  // Two rows a key, as the table's index orders them: by first day, then last day (c's row is
  // days 100-100, b's 100-101, a's stretch 100-103).
  assert.deepEqual(find(100, 100, null, 2), { b: 2, c: 2 });
  // Alice's own listing on her own platform is none of her probe's (after the two rows).
  assert.deepEqual(find(100, 100, null, 2, "alice"), { c: 2 });
  assert.deepEqual(find(100, 100, null, 64, "alice"), { a: 2, c: 2 });
  // Replaced: the old set is held until the writing transaction is known to have committed.
  index.write([set("c", 300, 300)], "2");
  assert.deepEqual(find(100, 100, null), { a: 2, b: 2, c: 2 });
  assert.equal(titleOf("c"), null);
  index.settle(new Map([["2", "committed"]]));
  assert.equal(titleOf("c"), "c from day 300");
  assert.deepEqual(find(100, 100, null), { a: 2, b: 2 });
  assert.deepEqual(find(300, 300, null), { c: 2 });
  index.write([set("c", 500, 500)], "3");
  index.settle(new Map([["3", "aborted"]]));
  assert.deepEqual(find(500, 500, null), {});
  assert.deepEqual(find(300, 300, null), { c: 2 });
  assert.equal(titleOf("c"), "c from day 300");
  index.forget(["c"]);
  assert.deepEqual(find(300, 300, null), {});
  assert.equal(titleOf("c"), null);
  assert.equal(index.size, 2);
});

Deno.test("a key of many listings finds the same rows, in the same order, as one added in order", () => {
  // Sets written one transaction at a time, over a year's days and twenty degrees of latitude: the
  // key's rows pass the length from which they are held by degree.
  const index = new KeyIndex();
  let held: { eventId: string; day: number; last: number; degree: number }[] = [];
  let seed = 7;
  // A 32-bit linear congruential generator, its high bits scaled to [0, n).
  const next = (n: number) => {
    seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
    return Math.floor((seed / 2 ** 32) * n);
  };
  /** Each lookup finds the listings of the first `fanout` rows in reach of all `held`. */
  const findsAsAScan = (when: string, shift: number) => {
    const lookups = [
      { first: 19_100, span: 0, band: null, fanout: 64 },
      { first: 19_200, span: 6, band: [44.6, 48.3], fanout: 64 },
      { first: 19_250, span: 2, band: [50.2, 52.9], fanout: 8 },
    ] as const;
    for (const { first, span, band, fanout } of lookups) {
      const reach = {
        first: first + shift,
        last: first + shift + span,
        latitudes: band === null ? null : [band[0], band[1]] as [number, number],
      };
      const want = held.filter((r) =>
        r.day >= reach.first - 3 && r.day <= reach.last && r.last >= reach.first &&
        (band === null || r.degree === 99 ||
          (r.degree >= Math.floor(band[0]) && r.degree <= Math.floor(band[1])))
      ).sort((a, b) => a.day - b.day || a.last - b.last || (a.eventId < b.eventId ? -1 : 1))
        .slice(0, fanout);
      const found = index.find({ keys: [5], reach, owner: "carol", platform: "meetup" }, fanout);
      assert.deepEqual(
        [...found.keys()].sort(),
        [...new Set(want.map((r) => r.eventId))].sort(),
        `${when}, days ${reach.first}-${reach.last}`,
      );
    }
  };
  for (let i = 0; i < 900; i++) {
    const eventId = `e${String(i).padStart(4, "0")}`;
    const firstDay = 19_000 + next(365);
    const lastDay = firstDay + (next(5) === 0 ? next(12) : 0);
    const degree = next(4) === 0 ? 99 : 40 + next(20);
    index.write(
      [heldSet(eventId, { keys: [5, 1_000 + i], firstDay, lastDay, degree }, "bob")],
      String(i),
    );
    index.settle(new Map([[String(i), "committed"]]));
    for (let day = firstDay; day <= lastDay; day += 4) {
      held.push({ eventId, day, last: Math.min(day + 3, lastDay), degree });
    }
    if (i % 37 === 0 || i >= 880) findsAsAScan(`after ${i + 1} sets`, i % 50);
  }
  // Two listings in three forgotten: the index clears them out, and finds the others as before.
  const gone = held.map((r) => r.eventId).filter((id) => Number(id.slice(1)) % 3 !== 0);
  index.forget(gone);
  held = held.filter((r) => !gone.includes(r.eventId));
  for (let shift = 0; shift < 50; shift += 7) findsAsAScan("after forgetting", shift);
});

async function storeAndDetect(sql: Sql, writer: Writer, events: Record<string, unknown>[]) {
  return await sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    const outcome = await upsertEvents(tx, writer, parsed(events));
    const ids = outcome.changed.map((c) => c.id);
    await detect(tx, ids);
    return ids;
  });
}

async function groupedCount(sql: Sql): Promise<number> {
  const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM event_group_members`;
  return n;
}
