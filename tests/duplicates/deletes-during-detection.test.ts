/**
 * A delete while detection writes links (on PostgreSQL detection runs after commit, on another
 * connection): the delete waits for the duplicates lock before it touches an event, so the two
 * never lock events in opposite orders (server/db/event-deletes.ts). Before, an operator deleting a
 * contributor's events deadlocked with detection, and one of them failed.
 */
import assert from "node:assert/strict";
import type { Sql } from "postgres";
import { createTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { openDatabase } from "../../server/db/connect.ts";
import { upsertEvents, type Writer } from "../../server/db/events.ts";
import { deleteEventsByPair } from "../../server/db/event-deletes.ts";
import { lockDuplicates } from "../../server/db/duplicate-links.ts";
import { EventInput } from "../../shared/event-schema.ts";

/** Stores one event of `writer`; returns its id. */
async function stored(sql: Sql, writer: Writer, externalId: string): Promise<string> {
  const event = EventInput.parse({
    external_id: externalId,
    platform: "other",
    source_url: `https://example.org/${externalId}`,
    title: `Event ${externalId}`,
    starts_at: "2034-05-10T09:00:00Z",
  });
  const outcome = await upsertEvents(sql, writer, [event]);
  return outcome.changed[0].id;
}

/** What another session of the database waits for, once one waits for a lock (at most 5 s). */
async function awaitedLock(sql: Sql): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    const rows = await sql<{ wait_event: string }[]>`
      SELECT wait_event FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (rows.length > 0) return rows[0].wait_event;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("No session waited for a lock within 5 s");
}

if (testBackends().includes("postgres")) {
  Deno.test("[postgres] a delete waits for detection's lock before it locks any event", async () => {
    const location = await createTestDatabase("postgres");
    const db = await openDatabase(location);
    let release = () => {};
    // Settled before the database closes, whatever the test found.
    const running: Promise<unknown>[] = [];
    try {
      const { sql } = db;
      const [alice, bob] = [await insertWriterKey(sql, "alice"), await insertWriterKey(sql, "bob")];
      // Stored c first: a delete of alice's events meets it before a.
      const c = await stored(sql, alice, "c");
      const a = await stored(sql, alice, "a");
      const b = await stored(sql, bob, "b");
      const link = (tx: Sql, x: string, y: string) =>
        tx`INSERT INTO event_links (a, b, kind, score)
           VALUES (${x < y ? x : y}, ${x < y ? y : x}, 'detected', 0.9)`;
      let linked!: () => void;
      const firstLink = new Promise<void>((resolve) => linked = resolve);
      const released = new Promise<void>((resolve) => release = resolve);
      // As detection links listings: each link's foreign keys lock the two events it names.
      const detection = sql.begin(async (transaction) => {
        const tx = transaction as unknown as Sql;
        await lockDuplicates(tx);
        await link(tx, a, b);
        linked();
        await released;
        await link(tx, c, b);
      });
      await firstLink;
      const deleting = deleteEventsByPair(sql, alice.contributorId, [
        { external_id: "a", platform: "other" },
        { external_id: "c", platform: "other" },
      ]);
      running.push(detection, deleting);
      assert.equal(await awaitedLock(sql), "advisory", "the delete waits for the lock, not a row");
      release();
      await detection;
      assert.deepEqual(await deleting, [true, true]);
      const [{ links }] = await sql<{ links: number }[]>`
        SELECT count(*)::int AS links FROM event_links`;
      assert.equal(links, 0, "the deleted events' links went with them");
    } finally {
      release();
      await Promise.allSettled(running);
      await db.close();
      await location.drop();
    }
  });
}
