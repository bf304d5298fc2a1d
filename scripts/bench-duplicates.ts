/**
 * What duplicate detection costs ingestion: 100-event batches stored with and without detection,
 * on a database already holding --size events from two contributors (detection run on all of
 * them), in rounds of both ways one after the other (each way first in every other round) so that
 * both see the same database and load. With detection, each batch is stored as ingest-batch.ts
 * stores it, through the server's DuplicateDetector: on PostgreSQL its transaction queues the
 * written events and the detector detects them after the commit, in transactions of its own,
 * while the next batch is stored (on both databases). A round's time runs until every one of its events is detected, so the rate
 * counts detection's whole work (the rate at which the pushes alone returned is printed beside
 * it). The second contributor re-lists some of the first one's events in its own words, in the
 * loaded events and in the timed batches alike, so groups form as they would. Prints events/s both
 * ways, the cost in percent (from the medians, and each round's against the other way's in the
 * same round), the CPU time a batch took both ways (this process and its database's server
 * processes: less moved by other work on the machine, and the same whether detection runs in the
 * batch's transaction or after it), where detection's time goes, the key rows and lookups per
 * event, and the load average.
 *
 *   TEST_DATABASE_URL=postgres://... deno run -A scripts/bench-duplicates.ts [--size 100000]
 *     [--batches 20] [--rounds 3] [--backend pglite|postgres] [--mix realistic|heavy]
 *     [--years 1] [--through database|http]
 *
 * --years N: the loaded events are spread over N years (52 weeks each) up to the timed ones' year,
 * as a service holding N years of listings; the default puts them all in the timed batches' year,
 * so that each year holds --size events (at 1,000,000: 2,700 a day in forty cities).
 *
 * --through http: the timed batches are pushed to the server's HTTP API as contributors push them
 * (scripts/support/duplicate-bench-http.ts), with two trusted keys, to the service opened on the
 * loaded database, as it runs and with its detection step left out: what detection costs the
 * ingestion a contributor sees, request parsing, validation and the rest of a push included. Only
 * the rates and CPU times are printed then.
 *
 * --keep-loaded DIR (PGlite): the loaded and vacuumed database is kept in DIR, and a later run
 * given the same DIR (and the same --size, --years and --mix) starts from a copy of it instead of
 * loading again: 1,000,000 events take PGlite over ten minutes to load. Delete DIR after changing what the
 * loading writes (detection's rules or its tables).
 */
import { parseArgs } from "node:util";
import type { Sql } from "postgres";
import type { EventRecord } from "../shared/event-schema.ts";
import { upsertEvents, type Writer } from "../server/db/events.ts";
import type { DetectionTimings } from "../server/duplicates/detect-duplicates.ts";
import { DuplicateDetector } from "../server/duplicates/duplicate-detector.ts";
import { type Database, openDatabase } from "../server/db/connect.ts";
import { vacuumEmbedded } from "../server/db/embedded-vacuum.ts";
import { migrate } from "../server/db/migrate.ts";
import { listEvents } from "../server/db/event-reads.ts";
import { countEvents } from "../server/db/event-counts.ts";
import { copyDirectory, createTestDatabase } from "../dev-support/databases.ts";
import { insertWriterKey } from "../dev-support/writer-key.ts";
import {
  benchEvents,
  type BenchMix,
  RELISTED_PER_HUNDRED,
  relisting,
} from "./support/duplicate-bench-events.ts";
import { cpuMilliseconds } from "./support/duplicate-bench-cpu.ts";
import { type HttpPushers, openHttpPushers } from "./support/duplicate-bench-http.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    size: { type: "string", default: "100000" },
    batches: { type: "string", default: "20" },
    rounds: { type: "string", default: "3" },
    backend: { type: "string", default: "postgres" },
    mix: { type: "string", default: "realistic" },
    years: { type: "string", default: "1" },
    through: { type: "string", default: "database" },
    "keep-loaded": { type: "string" },
  },
});
const size = Number(values.size);
const batches = Number(values.batches);
const rounds = Number(values.rounds);
const kind = values.backend === "pglite" ? "pglite" : "postgres";
if (values.mix !== "realistic" && values.mix !== "heavy") {
  throw new Error(`Cannot run: --mix is realistic or heavy, not ${JSON.stringify(values.mix)}`);
}
const mix: BenchMix = values.mix;
if (values.through !== "database" && values.through !== "http") {
  throw new Error(
    `Cannot run: --through is database or http, not ${JSON.stringify(values.through)}`,
  );
}
const http = values.through === "http";
const years = Number(values.years);
if (!Number.isInteger(years) || years < 1) {
  throw new Error(`Cannot run: --years is a whole number of at least 1, not ${values.years}`);
}
const keptAt = values["keep-loaded"];
if (keptAt !== undefined && kind !== "pglite") {
  throw new Error(
    "Cannot run: --keep-loaded keeps an embedded database: use it with --backend pglite",
  );
}
/** What a kept database was loaded with: a run asking for another load cannot use it. */
const loadedWith = JSON.stringify({ size, years, mix });

/** Batches in order, each with the index of its writer. */
type Work = [number, EventRecord[]][];

/** The event `days` days later (earlier when negative). */
function shiftedDays(e: EventRecord, days: number): EventRecord {
  if (days === 0) return e;
  const by = (iso: string) => new Date(Date.parse(iso) + days * 86_400_000).toISOString();
  return { ...e, starts_at: by(e.starts_at), ends_at: e.ends_at ? by(e.ends_at) : e.ends_at };
}

/**
 * Batches of `per` events from `first` for the two contributors in turn: the second one's
 * re-list some of the first one's previous batch.
 */
function* batchesFrom(
  first: number,
  count: number,
  per: number,
): Generator<[number, EventRecord[]]> {
  let previous: EventRecord[] = [];
  for (let b = 0; b < count; b++) {
    const who = b % 2;
    const relisted = who === 1
      ? previous.slice(0, Math.round(per * RELISTED_PER_HUNDRED[mix] / 100)).map((e) =>
        relisting(e, mix)
      )
      : [];
    const own = benchEvents(first + b * per, per - relisted.length, mix);
    if (who === 0) previous = own;
    yield [who, [...own, ...relisted]];
  }
}

/** No detection, or as the server's `detector` does. */
type Detection = "off" | DuplicateDetector;

async function store(sql: Sql, writer: Writer, events: EventRecord[], detection: Detection) {
  // As ingest-batch.ts: a batch waits while detection is too far behind.
  const release = detection === "off" ? () => {} : await detection.roomToQueue(events.length);
  try {
    const ids = await sql.begin(async (transaction) => {
      const tx = transaction as unknown as Sql;
      const outcome = await upsertEvents(tx, writer, events);
      const changed = outcome.changed.map((c) => c.id);
      if (detection !== "off") await detection.queue(tx, changed);
      return changed;
    });
    if (detection !== "off") detection.committed(ids);
  } finally {
    release();
  }
}

/** Stores `work` in order; with a detector, until every batch's events are detected. */
async function storeAll(sql: Sql, writers: Writer[], work: Work, detection: Detection) {
  const t = performance.now();
  for (const [who, batch] of work) await store(sql, writers[who], batch, detection);
  const pushed = performance.now() - t;
  if (detection !== "off") await detection.settled(10 * 60_000);
  return { pushed, detected: performance.now() - t };
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

/** The loaded database's settings in a --keep-loaded directory; null when it holds none. */
async function keptLoad(dir: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(`${dir}/loaded-with.json`);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

/** The writers of the loaded database's keys named `names`. */
async function writersNamed(sql: Sql, names: string[]): Promise<Writer[]> {
  const rows = await sql<{ name: string; contributor_id: string; id: string }[]>`
    SELECT name, contributor_id, id FROM api_keys WHERE name = ANY(${names})`;
  return names.map((name) => {
    const row = rows.find((r) => r.name === name);
    if (row === undefined) throw new Error(`Cannot run: the kept database has no key ${name}`);
    return { contributorId: row.contributor_id, keyId: row.id };
  });
}

/** Loads --size events from two contributors, detected, then vacuumed; returns their writers. */
async function loadDatabase(sql: Sql): Promise<Writer[]> {
  const writers = [
    await insertWriterKey(sql, "bench-a"),
    await insertWriterKey(sql, "bench-b"),
  ];
  const loadStarted = performance.now();
  const LOAD_BATCH = 500;
  let loaded = 0;
  let b = 0;
  const loader = new DuplicateDetector(sql, { maxBacklog: 4 });
  for (const [who, batch] of batchesFrom(0, Math.ceil(size / LOAD_BATCH), LOAD_BATCH)) {
    // A batch and the next (which re-lists some of it) move back by the same whole weeks.
    const back = (Math.floor(b++ / 2) % years) * 52 * 7;
    await store(sql, writers[who], batch.map((e) => shiftedDays(e, -back)), loader);
    loaded += batch.length;
    if (loaded % 20_000 === 0) {
      console.log(
        `loaded ${loaded} events, ${((performance.now() - loadStarted) / 1000).toFixed(0)} s`,
      );
    }
  }
  const loadSeconds = ((performance.now() - loadStarted) / 1000).toFixed(0);
  // As the server would have by now: PostgreSQL's autovacuum, or the server's on PGlite.
  const upkeepStarted = performance.now();
  if (kind === "pglite") await vacuumEmbedded(sql);
  else await sql`VACUUM ANALYZE`;
  const upkeep = ((performance.now() - upkeepStarted) / 1000).toFixed(1);
  const [{ grouped }] = await sql<{ grouped: number }[]>`
    SELECT count(*)::int AS grouped FROM event_group_members`;
  console.log(
    `${kind}, ${mix} mix: ${loaded} events loaded over ${years} year(s) (${grouped} in groups) in ` +
      `${loadSeconds} s, then vacuumed and analysed in ` +
      `${upkeep} s; load ${load()}`,
  );
  return writers;
}

const load = () => Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
const location = await createTestDatabase(kind);
let db: Database | null = null;
let pushers: HttpPushers | null = null;
try {
  let writers: Writer[];
  const kept = keptAt === undefined ? null : await keptLoad(keptAt);
  if (kept !== null) {
    if (kept !== loadedWith) {
      throw new Error(
        `Cannot run: ${keptAt} holds a database loaded with ${kept}, not ${loadedWith}: give ` +
          `another --keep-loaded directory, or delete that one`,
      );
    }
    // In place of the fresh database's files, not over them.
    await Deno.remove(location.dataDir, { recursive: true });
    await copyDirectory(`${keptAt}/data`, location.dataDir);
    db = await openDatabase(location);
    // As the server would at start: the kept database may predate a migration.
    const applied = await migrate(db.sql);
    writers = await writersNamed(db.sql, ["bench-a", "bench-b"]);
    console.log(
      `${kind}, ${mix} mix: the database loaded with ${loadedWith} copied from ${keptAt}` +
        (applied.length > 0 ? `, migrated (${applied.join(", ")})` : ""),
    );
  } else {
    db = await openDatabase(location);
    writers = await loadDatabase(db.sql);
    if (keptAt !== undefined) {
      // Copied while closed: PGlite's files are whole only then.
      await db.close();
      await Deno.remove(keptAt, { recursive: true }).catch(() => {});
      await copyDirectory(location.dataDir, `${keptAt}/data`);
      await Deno.writeTextFile(`${keptAt}/loaded-with.json`, loadedWith);
      db = await openDatabase(location);
    }
  }
  if (http) {
    // The service opens the database itself (the embedded one takes one opener at a time).
    await db.close();
    db = null;
    pushers = await openHttpPushers(location);
  }
  const sql = pushers?.sql ?? db!.sql;
  const rate = { on: [] as number[], off: [] as number[], pushedOn: [] as number[] };
  // CPU milliseconds per batch, both ways: what the work took whatever else the cores ran.
  const cpu = { on: [] as number[], off: [] as number[] };
  const timings: DetectionTimings = {};
  const detector = new DuplicateDetector(sql, { timings });
  let next = 10_000_000;
  if (pushers !== null) {
    // Untimed: each key's first batch both ways.
    for (const detect of [true, false]) {
      await pushers.pushAll([...batchesFrom(next, 2, 100)], detect);
      next += 200;
    }
  }
  // Each round's batches, kept to be pushed again a day later (below).
  const pushed: { detect: boolean; work: Work }[] = [];
  for (let r = 0; r < rounds; r++) {
    // Each way first in every other round: a machine slowing down or speeding up within a run
    // (the rate without detection moved by half within one) weighs on both ways alike.
    for (const detect of r % 2 === 0 ? [false, true] : [true, false]) {
      const work = [...batchesFrom(next, batches, 100)];
      pushed.push({ detect, work });
      next += batches * 100;
      const cpuBefore = await cpuMilliseconds(sql, kind);
      const took = pushers !== null
        ? await pushers.pushAll(work, detect)
        : await storeAll(sql, writers, work, detect ? detector : "off");
      const perSecond = (batches * 100) / (took.detected / 1000);
      const cpuPerBatch = (await cpuMilliseconds(sql, kind) - cpuBefore) / batches;
      rate[detect ? "on" : "off"].push(perSecond);
      if (detect) rate.pushedOn.push((batches * 100) / (took.pushed / 1000));
      cpu[detect ? "on" : "off"].push(cpuPerBatch);
      console.log(
        `round ${r + 1} detection ${detect ? "on " : "off"}: ${perSecond.toFixed(0)} events/s` +
          (detect ? ` (pushes returned at ${rate.pushedOn.at(-1)!.toFixed(0)} events/s)` : "") +
          `, CPU ${cpuPerBatch.toFixed(1)} ms a batch; load ${load()}`,
      );
    }
  }
  // In the database only: through HTTP, the service's own detector runs without timings.
  if (pushers === null) {
    // Timings add up per detection transaction, which may take several batches: per pushed batch.
    const timedBatches = rounds * batches;
    const isCount = (k: string) => k.endsWith("(count)");
    const perBatch = Object.entries(timings).filter(([k]) => !isCount(k))
      .map(([k, v]) => `${k} ${(v / timedBatches).toFixed(1)}`);
    console.log(
      `detection per pushed batch (ms): ${perBatch.join(", ")}; candidate pairs per event ` +
        `${(timings["candidates (count)"] / timings["match (count)"]).toFixed(1)}`,
    );
    // The same listings a day later: each changed listing's key set is rewritten (its days
    // changed), its links replaced and its group re-formed.
    const moved: Record<string, number[]> = { on: [], off: [] };
    const movedTimings: DetectionTimings = {};
    const movedDetector = new DuplicateDetector(sql, { timings: movedTimings });
    const dayLater = (e: EventRecord) => shiftedDays(e, 1);
    for (const { detect, work } of pushed) {
      const later: Work = work.map(([who, batch]) => [who, batch.map(dayLater)]);
      const took = await storeAll(sql, writers, later, detect ? movedDetector : "off");
      moved[detect ? "on" : "off"].push((work.length * 100) / (took.detected / 1000));
    }
    await Promise.all([detector.stop(), movedDetector.stop()]);
    const movedMedian = (k: string) => [...moved[k]].sort((a, b) => a - b)[moved[k].length >> 1];
    console.log(
      `the same listings a day later: detection off ${
        movedMedian("off").toFixed(0)
      } events/s, on ` +
        `${movedMedian("on").toFixed(0)} events/s (cost ` +
        `${((1 - movedMedian("on") / movedMedian("off")) * 100).toFixed(1)}%); detection per ` +
        `pushed batch (ms): ${
          Object.entries(movedTimings).filter(([k]) => !isCount(k))
            .map(([k, v]) => `${k} ${(v / timedBatches).toFixed(1)}`).join(", ")
        }; load ${load()}`,
    );
    await timeListings(sql);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const on = median(rate.on);
  const off = median(rate.off);
  console.log(
    `\n${kind}${http ? ", through HTTP" : ""}, ${mix} mix, ${size} events: detection off ${
      off.toFixed(0)
    } events/s, on ` +
      `${on.toFixed(0)} events/s until every event is detected (pushes returned at ` +
      `${median(rate.pushedOn).toFixed(0)} events/s; medians of ${rounds}): detection costs ` +
      `${((1 - on / off) * 100).toFixed(1)}% of throughput; load average ${load()}`,
  );
  // Each round's cost against the other way's in the same round: the two ran back to back, so
  // this is less moved by the machine's drift than the medians' ratio.
  const paired = rate.on.map((r, i) => (1 - r / rate.off[i]) * 100).sort((a, b) => a - b);
  // Between the two nearest rounds where q falls between them (the median of an even count).
  const quartile = (q: number) => {
    const at = (paired.length - 1) * q;
    const below = paired[Math.floor(at)];
    return (below + (paired[Math.ceil(at)] - below) * (at - Math.floor(at))).toFixed(1);
  };
  console.log(
    `cost in each round, against the other way's in the same round: median ${quartile(0.5)}%, ` +
      `quartiles ${quartile(0.25)}% and ${quartile(0.75)}%, range ${quartile(0)}% to ` +
      `${quartile(1)}% (${rounds} rounds)`,
  );
  const cpuOn = median(cpu.on);
  const cpuOff = median(cpu.off);
  console.log(
    `CPU a batch (this process and its database's servers): off ${cpuOff.toFixed(1)} ms, on ` +
      `${cpuOn.toFixed(1)} ms: detection costs ${((1 - cpuOff / cpuOn) * 100).toFixed(1)}% of ` +
      `the throughput the CPU allows`,
  );
} finally {
  await pushers?.close();
  await db?.close();
  await location.drop();
}
