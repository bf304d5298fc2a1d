/**
 * Push time with saved searches: 100-event batches pushed over HTTP by a trusted key, with
 * --searches saved searches as people write them (two words; a word and a city; a topic and a
 * city) paused and active, on PGlite and (when TEST_DATABASE_URL is set) PostgreSQL.
 * Matching is one statement per batch against every search (docs/alerts.md), after the push
 * answers, with duplicate detection; the target is at most 10% more push time. Every match is
 * written (a hit), so the figure includes writing them. Matching keeping up is shown by how long
 * after a block's last push answered detection and matching are done ("caught up"). Last, matching
 * alone: BATCHES batches queued with matching stopped, then matched with nothing else running
 * ("matching alone", per batch), paused and active; a figure the machine's load moves less.
 *
 * With --miss, the searches' words are ones no event holds: the cost of matching alone.
 *
 * Pushes come in rounds: --batches with the searches paused (as if none) and --batches with them
 * active, --rounds times, each way first in every other round, so that the load of a shared
 * machine drifting, and upkeep that comes every so many batches (the embedded database's vacuum),
 * weigh on both.
 *
 *   TEST_DATABASE_URL=postgres://... deno run -A scripts/bench-alerts.ts [--searches 10000] [--batches 5] [--rounds 4] [--miss]
 */
import { parseArgs } from "node:util";
import type { Sql } from "postgres";
import { testBackends } from "../dev-support/databases.ts";
import { createApiKey, postBatch, startTestApp } from "../dev-support/test-server.ts";
import { startAlerts } from "../server/alerts/start-alerts.ts";
import { everyWordQuery, wordAnchorOf } from "../server/db/saved-searches.ts";
import { realisticEvents } from "./support/realistic-events.ts";
import { fmt, percentile } from "./support/stats.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    searches: { type: "string", default: "10000" },
    batches: { type: "string", default: "5" },
    rounds: { type: "string", default: "4" },
    miss: { type: "boolean", default: false },
  },
});
const SEARCHES = Number(values.searches);
const BATCHES = Number(values.batches);
const ROUNDS = Number(values.rounds);
const WORDS = [
  "rust",
  "python",
  "kubernetes",
  "react",
  "golang",
  "java",
  "kotlin",
  "security",
  "devops",
  "machine learning",
  "data",
  "cloud",
  "typescript",
  "postgres",
  "elixir",
  "haskell",
  "swift",
  "android",
  "design",
  "testing",
  "serverless",
  "graphql",
  "blockchain",
  "ai",
  "webassembly",
];
const CITIES = ["Berlin", "London", "Paris", "Amsterdam", "Tokyo", "Lisbon", "Madrid", "Oslo"];

/** Stores `n` saved searches of one contributor straight in the table, as a save would. */
async function seedSearches(sql: Sql, contributorId: string, n: number): Promise<void> {
  const matchOf = new Map<string, string | null>();
  const rows = [];
  for (let i = 0; i < n; i++) {
    const suffix = values.miss ? `q${i}x` : "";
    const word = WORDS[i % WORDS.length].replaceAll(" ", "") + suffix;
    const other = WORDS[(i * 7 + 3) % WORDS.length].replaceAll(" ", "") + suffix;
    const kind = i % 3; // two words; a word and a city; a topic and a city
    const q = kind === 0 ? `${word} ${other}` : kind === 1 ? word : null;
    if (q !== null && !matchOf.has(q)) matchOf.set(q, await everyWordQuery(sql, q));
    const qMatch = q === null ? null : matchOf.get(q)!;
    rows.push({
      contributor_id: contributorId,
      name: `search ${i}`,
      q,
      q_match: qMatch,
      word_anchor: wordAnchorOf(qMatch),
      city: kind === 0 ? null : CITIES[(i * 5) % CITIES.length],
      topic: kind === 2 ? word : null,
      webhook_url: null,
      feed_token: crypto.randomUUID(),
      unsubscribe_token: crypto.randomUUID(),
      link_base: "http://localhost",
    });
  }
  for (let i = 0; i < rows.length; i += 1000) {
    await sql`INSERT INTO saved_searches ${sql(rows.slice(i, i + 1000))}`;
  }
  await sql`ANALYZE saved_searches`;
}

/**
 * Milliseconds of each of BATCHES pushes of new events, starting at event `first`, back to back.
 * The batches are made first: the server runs in this process, and making one between two pushes
 * would be a pause in the pushes that a contributor pushing a file does not make.
 */
async function pushTimes(url: string, key: string, first: number): Promise<number[]> {
  const times: number[] = [];
  const batches = Array.from({ length: BATCHES }, (_, b) => realisticEvents(first + b * 100, 100));
  for (const events of batches) {
    const started = performance.now();
    const r = await postBatch(url, key, { events });
    times.push(performance.now() - started);
    if (r.status !== 200) throw new Error(`push failed: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return times;
}

for (const kind of testBackends().reverse()) {
  const server = await startTestApp(kind, {
    alertWorker: false,
    embeddingWorker: "external",
    defaultRateLimitPerMinute: 100_000,
  });
  try {
    const key = await createApiKey(server, {
      contributor: "bench",
      rate_limit_per_minute: 100_000,
    });
    const sql = server.service.deps.db.sql;
    await sql`UPDATE api_keys SET trusted = true WHERE id = ${key.id}`;
    const [{ id: owner }] = await sql<{ id: string }[]>`
      INSERT INTO contributors (name) VALUES ('alert owner') RETURNING id`;
    const duplicates = server.service.deps.duplicates;
    /** Milliseconds from now until the batches pushed are detected and matched. */
    const caughtUp = async () => {
      const started = performance.now();
      await duplicates.settled(300_000);
      await server.service.deps.alerts.matched(300_000);
      return performance.now() - started;
    };
    await pushTimes(server.url, key.key, 0); // warm-up, and events to match against later
    await caughtUp();
    await seedSearches(sql, owner, SEARCHES);
    // Blocks with the searches paused (matching then has none to look at) and active, in turn,
    // each first in every other round (see the module comment).
    const without: number[] = [], withSearches: number[] = [];
    /** Per block: its pushes and the wait until all is matched, per batch (throughput). */
    const doneWithout: number[] = [], doneWith: number[] = [];
    let lagWithout = 0, lagWith = 0, first = 100_000;
    for (let round = 0; round < ROUNDS; round++) {
      for (const paused of round % 2 === 0 ? [true, false] : [false, true]) {
        await sql`UPDATE saved_searches SET paused = ${paused}`;
        const times = await pushTimes(server.url, key.key, first);
        first += 100_000;
        const lag = await caughtUp();
        const perBatch = (times.reduce((a, b) => a + b, 0) + lag) / BATCHES;
        if (paused) {
          without.push(...times);
          lagWithout = Math.max(lagWithout, lag);
          doneWithout.push(perBatch);
        } else {
          withSearches.push(...times);
          lagWith = Math.max(lagWith, lag);
          doneWith.push(perBatch);
        }
      }
    }
    let alerts = server.service.deps.alerts;
    /** Matching alone: milliseconds a batch to match BATCHES batches queued meanwhile. */
    const matchingAlone = async (paused: boolean) => {
      await sql`UPDATE saved_searches SET paused = ${paused}`;
      await alerts.stop();
      await pushTimes(server.url, key.key, first);
      first += 100_000;
      await duplicates.settled(300_000);
      alerts = startAlerts(sql, server.service.deps.config);
      const started = performance.now();
      await alerts.matched(300_000);
      return (performance.now() - started) / BATCHES;
    };
    const aloneWithout = await matchingAlone(true);
    const aloneWith = await matchingAlone(false);
    await alerts.stop();
    const [{ hits }] = await sql<{ hits: number }[]>`
      SELECT coalesce(sum(cardinality(saved_search_ids)), 0)::int AS hits FROM alert_hits`;
    const median = (xs: number[]) => percentile(xs, 50);
    const ratio = median(withSearches) / median(without);
    console.log(
      `[${kind}] ${ROUNDS} x ${BATCHES} batches of 100: median ${
        fmt(median(without))
      } ms with the saved searches paused (as none), ${
        fmt(median(withSearches))
      } ms with ${SEARCHES} (p95 ${fmt(percentile(without, 95))} / ${
        fmt(percentile(withSearches, 95))
      } ms): ${fmt((ratio - 1) * 100)}% more (target <= 10%); ${hits} matches written; ` +
        `caught up at most ${fmt(lagWithout)} / ${fmt(lagWith)} ms after a block's last push; ` +
        `until all is matched, ${fmt(median(doneWithout))} / ${fmt(median(doneWith))} ms a ` +
        `batch (${fmt((median(doneWith) / median(doneWithout) - 1) * 100)}% more); ` +
        `matching alone ${fmt(aloneWithout)} / ${fmt(aloneWith)} ms a batch; ` +
        `load average ${Deno.loadavg()[1].toFixed(1)}`,
    );
  } finally {
    await server.close();
  }
}
