/**
 * The embedded database runs no autovacuum, so the service vacuums and analyses its tables by
 * autovacuum's default thresholds (server/db/embedded-vacuum.ts): a table with many dead rows, or
 * many rows inserted since its last vacuum, is vacuumed; one modified enough, analysed; the others
 * are left alone.
 */
import assert from "node:assert/strict";
import { openTestDatabase } from "../../dev-support/databases.ts";
import { upkeepOf, vacuumEmbedded } from "../../server/db/embedded-vacuum.ts";

Deno.test("a table's upkeep follows autovacuum's default thresholds", () => {
  const table = {
    name: "t",
    live: 1000,
    dead: 0,
    insertedSinceVacuum: 0,
    modifiedSinceAnalyze: 0,
    unanalysed: false,
  };
  assert.equal(upkeepOf(table), null);
  assert.equal(upkeepOf({ ...table, dead: 250 }), null, "at the threshold: 50 + 20%");
  assert.equal(upkeepOf({ ...table, dead: 251 }), "vacuum");
  assert.equal(upkeepOf({ ...table, insertedSinceVacuum: 1200 }), null);
  assert.equal(upkeepOf({ ...table, insertedSinceVacuum: 1201 }), "vacuum");
  assert.equal(upkeepOf({ ...table, modifiedSinceAnalyze: 151 }), "analyze");
  assert.equal(upkeepOf({ ...table, dead: 251, modifiedSinceAnalyze: 151 }), "vacuum");
  assert.equal(upkeepOf({ ...table, unanalysed: true }), "analyze");
});

Deno.test("[pglite] the embedded database's tables are vacuumed and analysed when they need it", async () => {
  const db = await openTestDatabase("pglite");
  const { sql } = db;
  const stateOf = async () =>
    (await sql<{ dead: number; vacuums: number; analyses: number }[]>`
      SELECT n_dead_tup::int AS dead, vacuum_count::int AS vacuums,
             (analyze_count + autoanalyze_count)::int AS analyses
      FROM pg_stat_user_tables WHERE relname = 'churn'`)[0];
  const didTo = (done: { table: string; did: string }[]) =>
    done.find((d) => d.table === "churn")?.did;
  try {
    await sql`CREATE TABLE churn (id int PRIMARY KEY, v text)`;
    await sql`INSERT INTO churn SELECT g, 'first' FROM generate_series(1, 5000) g`;
    assert.equal(didTo(await vacuumEmbedded(sql)), "vacuum", "5,000 rows inserted");
    assert.deepEqual(await stateOf(), { dead: 0, vacuums: 1, analyses: 1 });

    // 100 of 5,000 rows changed: under both thresholds.
    await sql`UPDATE churn SET v = 'second' WHERE id <= 100`;
    assert.equal(didTo(await vacuumEmbedded(sql)), undefined);

    await sql`UPDATE churn SET v = 'third' WHERE id <= 1500`;
    // Each table's upkeep waits for its turn (the service: a moment without requests).
    let turns = 0;
    const done = await vacuumEmbedded(sql, () => Promise.resolve(void turns++));
    assert.equal(didTo(done), "vacuum", "1,600 dead rows");
    assert.equal(turns, done.length);
    assert.deepEqual(await stateOf(), { dead: 0, vacuums: 2, analyses: 2 });
    assert.equal(didTo(await vacuumEmbedded(sql)), undefined, "nothing left to do");
  } finally {
    await db.close();
  }
});

Deno.test("[pglite] a table whose counts were lost (a process killed while loading) is analysed", async () => {
  const db = await openTestDatabase("pglite");
  const { sql } = db;
  try {
    await sql`CREATE TABLE loaded (id int PRIMARY KEY, v text)`;
    await sql`INSERT INTO loaded SELECT g, repeat('x', 100) FROM generate_series(1, 5000) g`;
    // What a process stopped without closing the database leaves: rows, but no counts of them.
    await sql`SELECT pg_stat_force_next_flush()`;
    await sql`SELECT pg_stat_reset()`;
    const didTo = (done: { table: string; did: string }[]) =>
      done.find((d) => d.table === "loaded")?.did;
    assert.equal(didTo(await vacuumEmbedded(sql)), "analyze");
    const [{ analysed }] = await sql<{ analysed: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM pg_statistic WHERE starelid = 'loaded'::regclass) AS analysed`;
    assert.ok(analysed);
    assert.equal(didTo(await vacuumEmbedded(sql)), undefined, "it has statistics now");
  } finally {
    await db.close();
  }
});
