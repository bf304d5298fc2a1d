/**
 * Detection after commit (server/duplicates/duplicate-detector.ts): a push queues its events and
 * returns; reads never wait for detection, which groups the push's listings moments later; what
 * a stopped server left queued is detected by the next detector on the database, and nothing is
 * detected twice or lost.
 */
import assert from "node:assert/strict";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestApp } from "../../dev-support/test-server.ts";
import { get, postEvents } from "../ingest/support/http.ts";
import { untilGrouped } from "../../dev-support/grouping.ts";
import postgres, { type Sql } from "postgres";
import { DuplicateDetector } from "../../server/duplicates/duplicate-detector.ts";
import { detectStored } from "../../server/duplicates/detect-duplicates.ts";
import { lockDuplicates } from "../../server/db/duplicate-links.ts";
import { redetectionRowsOf } from "../../server/db/duplicate-rules.ts";
import { queueForDetection, takeQueued } from "../../server/db/duplicate-queue.ts";

/** One conference as two lists word it, and `n` meetups of one city the same week. */
const copies = [
  {
    external_id: "gophercon-eu-2032",
    platform: "other",
    source_url: "https://gophercon.eu/?ref=list",
    title: "GopherCon Europe 2032",
    starts_at: "2032-06-14T09:00:00+02:00",
    city: "Berlin",
    country: "Germany",
  },
  {
    external_id: "luma-77",
    platform: "luma",
    source_url: "https://www.gophercon.eu/",
    title: "GopherCon EU",
    starts_at: "2032-06-14T07:00:00Z",
    city: "Berlin",
    country: "DE",
  },
];
const meetups = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    external_id: `meetup-${i}`,
    platform: "meetup",
    source_url: `https://www.meetup.com/berlin-tech/events/${i}/`,
    title: `Berlin Tech Evening #${i + 1}`,
    starts_at: `2032-06-1${i % 5}T18:00:00Z`,
    city: "Berlin",
    country: "Germany",
  }));

/** Runs a detector of its own until the queue is detected; returns what it logged as errors. */
async function detectQueued(sql: Sql): Promise<unknown[][]> {
  const logged: unknown[][] = [];
  const log = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  const next = new DuplicateDetector(sql);
  try {
    next.start();
    await next.settled(60_000);
  } finally {
    await next.stop();
    console.error = log;
  }
  return logged;
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a push returns before detection, grouped moments later; a stopped server's queue is detected by the next`, async () => {
    const server = await startTestApp(kind);
    const { sql } = server.service.deps.db;
    const detector = server.service.deps.duplicates;
    const shown = async () =>
      (await get(server.url, "/api/v1/events?from=2032-01-01&limit=100")).body.data.length;
    const queued = async () =>
      (await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM duplicate_queue`)[0].n;
    try {
      const alice = (await createApiKey(server, { contributor: "alice" })).key;
      const bob = (await createApiKey(server, { contributor: "bob" })).key;
      assert.equal((await postEvents(server.url, alice, { events: [copies[0]] })).status, 200);
      assert.equal((await postEvents(server.url, bob, { events: copies.slice(1) })).status, 200);
      // A read never waits for detection: at once it shows one or two listings, then one.
      assert.ok([1, 2].includes(await shown()));
      await untilGrouped(sql);
      assert.equal(await shown(), 1, "one listing per group once detected");
      assert.equal(await queued(), 0, "the queue is empty once detected");

      // A server stopped before detecting leaves its pushes queued.
      await detector.stop();
      assert.equal(
        (await postEvents(server.url, alice, { events: meetups(12) })).status,
        200,
      );
      assert.equal(await queued(), 12);
      assert.equal(await shown(), 13, "ungrouped, and not detected, while no detector runs");

      // The next detector on the database takes them at start, in batches of its size.
      const next = new DuplicateDetector(sql, { batchSize: 5 });
      try {
        next.start();
        await next.settled();
        assert.equal(await queued(), 0);
        const [sets] = await sql<{ n: number }[]>`
          SELECT count(*)::int AS n FROM event_key_sets s JOIN events e ON e.id = s.event_id
          WHERE e.external_id LIKE 'meetup-%'`;
        assert.equal(sets.n, 12, "each queued event detected once: its keys stored");
        // Numbered meetups are other instances, never one group.
        assert.equal(await shown(), 13);
      } finally {
        await next.stop();
      }
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] detection takes its queue first in, first out`, async () => {
    const db = await openTestDatabase(kind);
    try {
      const ids = (n: number) => Array.from({ length: n }, () => crypto.randomUUID());
      const [first, second, third] = [ids(50), ids(50), ids(50)];
      await queueForDetection(db.sql, first);
      await queueForDetection(db.sql, second);
      await db.sql.begin((tx) => takeQueued(tx as unknown as Sql, 50));
      // The space the first take freed is where the next rows are written.
      await db.sql`VACUUM duplicate_queue`;
      await queueForDetection(db.sql, third);
      await queueForDetection(db.sql, [second[0], third[0]]); // queued again: keep their rows
      await db.sql.begin((tx) => takeQueued(tx as unknown as Sql, 50));
      const left = await db.sql<{ event_id: string }[]>`SELECT event_id FROM duplicate_queue`;
      assert.deepEqual(left.map((r) => r.event_id).sort(), [...third].sort());
    } finally {
      await db.close();
    }
  });

  Deno.test(`[${kind}] an event deleted before detection leaves nothing behind`, async () => {
    const server = await startTestApp(kind);
    const { sql } = server.service.deps.db;
    try {
      const alice = (await createApiKey(server, { contributor: "alice" })).key;
      await server.service.deps.duplicates.stop();
      assert.equal((await postEvents(server.url, alice, { events: [copies[0]] })).status, 200);
      await sql`DELETE FROM events`;
      assert.deepEqual(await detectQueued(sql), [], "no detection failed");
      for (const table of ["duplicate_queue", "event_key_sets"]) {
        const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ${sql(table)}`;
        assert.equal(n, 0, `${table} is empty`);
      }
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] a queued event detected meanwhile another way is detected again without harm`, async () => {
    const server = await startTestApp(kind);
    const { sql } = server.service.deps.db;
    try {
      await server.service.deps.duplicates.stop();
      for (const [who, copy] of [["alice", copies[0]], ["bob", copies[1]]] as const) {
        const { key } = await createApiKey(server, { contributor: who });
        assert.equal((await postEvents(server.url, key, { events: [copy] })).status, 200);
      }
      // As the embedding worker's detection by vectors would, before the queue is reached.
      await sql.begin(async (tx) => {
        await lockDuplicates(tx as unknown as Sql);
        const rows = await redetectionRowsOf(
          tx as unknown as Sql,
          (await tx<{ id: string }[]>`SELECT id FROM events`).map((r) => r.id),
        );
        await detectStored(tx as unknown as Sql, rows, { recompare: true, vectors: () => false });
      });
      const logged = await detectQueued(sql);
      assert.deepEqual(logged, [], "no detection failed");
      const [{ queued, grouped }] = await sql<{ queued: number; grouped: number }[]>`
        SELECT (SELECT count(*)::int FROM duplicate_queue) AS queued,
               (SELECT count(*)::int FROM event_group_members) AS grouped`;
      assert.deepEqual({ queued, grouped }, { queued: 0, grouped: 2 });
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] an event whose detection fails is dropped from the queue; the others are detected`, async () => {
    const server = await startTestApp(kind);
    const { sql } = server.service.deps.db;
    try {
      const alice = (await createApiKey(server, { contributor: "alice" })).key;
      await server.service.deps.duplicates.stop();
      assert.equal((await postEvents(server.url, alice, { events: meetups(3) })).status, 200);
      const [{ id: poisoned }] = await sql<{ id: string }[]>`
        SELECT id FROM events WHERE external_id = 'meetup-1'`;
      // A failure detection cannot get past, on one event: storing its keys raises.
      await sql.unsafe(`
        CREATE FUNCTION refuse_keys() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused for the test'; END $$;
        CREATE TRIGGER refuse_keys BEFORE INSERT ON event_key_sets FOR EACH ROW
          WHEN (NEW.event_id = '${poisoned}') EXECUTE FUNCTION refuse_keys();`);
      const logged = await detectQueued(sql);
      const [{ n: queued }] = await sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM duplicate_queue`;
      assert.equal(queued, 0, "nothing left queued");
      const detected = await sql<{ external_id: string }[]>`
        SELECT e.external_id FROM event_key_sets s JOIN events e ON e.id = s.event_id
        ORDER BY e.external_id`;
      assert.deepEqual(detected.map((r) => r.external_id), ["meetup-0", "meetup-2"]);
      assert.ok(
        logged.some((args) =>
          String(args[0]).includes(`Cannot detect the duplicates of event ${poisoned}`)
        ),
        JSON.stringify(logged.map((args) => String(args[0]))),
      );
    } finally {
      await server.close();
    }
  });
}

Deno.test("batches let through at once count each other against detection's backlog", async () => {
  const db = await openTestDatabase("pglite");
  const detector = new DuplicateDetector(db.sql, { maxBacklog: 100 });
  const pause = () => new Promise((r) => setTimeout(r, 150));
  try {
    // Fifty events waiting, never taken (none is in the queue's table).
    detector.committed(Array.from({ length: 50 }, () => crypto.randomUUID()));
    await detector.settled();
    const through: number[] = [];
    const batches = [0, 1, 2].map((i) =>
      detector.roomToQueue(40, 60_000).then((release) => {
        through.push(i);
        return release;
      })
    );
    await pause();
    assert.deepEqual(through, [0], "50 + 40 fit in 100, a second 40 does not");
    (await batches[0])(); // the first batch is done: its room is free again
    await pause();
    assert.deepEqual(through, [0, 1]);
    (await batches[1])();
    await batches[2];
    assert.deepEqual(through, [0, 1, 2]);
  } finally {
    await detector.stop();
    await db.close();
  }
});

Deno.test("while detection fails, reads and pushes do not wait, and it is tried again", async () => {
  // A database that refuses every connection: each run fails at its first statement.
  const sql = postgres("postgres://nobody@127.0.0.1:1/none", { max: 1, onnotice: () => {} });
  const detector = new DuplicateDetector(sql, { retryMs: 20, maxBacklog: 1 });
  const logged: unknown[][] = [];
  const log = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    detector.wake();
    await detector.settled(60_000);
    const started = performance.now();
    // Three events queued, past the backlog of one: only failing detection lets a push through.
    detector.committed(["a", "b", "c"]);
    await detector.settled(60_000);
    (await detector.roomToQueue(100, 60_000))();
    // Waiting would last until the 60 s bounds; 10 s leaves a loaded machine room.
    assert.ok(performance.now() - started < 10_000, "no wait while detection fails");
    while (logged.length < 3) await new Promise((r) => setTimeout(r, 20));
    assert.match(String(logged[0][0]), /Cannot detect duplicates of queued events/);
  } finally {
    console.error = log;
    await detector.stop();
    await sql.end();
  }
});
