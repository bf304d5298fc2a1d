/**
 * How fast the site's pages are served: the home page (first and later pages, with filters), the
 * search page and an event page, p50/p95 over HTTP at concurrency 1, from the real server in its
 * own process, with 100,000 events. Target: home and search p95 at most 50 ms on PostgreSQL.
 * Besides them, --unreviewed contributors (default 10) who signed themselves up hold 1,000
 * events each starting within the coming week, the worst the fair front page meets under the
 * default budget (docs/unreviewed-contributors.md).
 *
 *   TEST_DATABASE_URL=postgres://... deno run -A scripts/bench-pages.ts [--size 100000] [--runs 200]
 *     [--unreviewed 10]
 *
 * PostgreSQL when TEST_DATABASE_URL is set (a fresh database is made there and dropped
 * afterwards), else PGlite in a temporary directory.
 */
import { fmt, percentile } from "./support/stats.ts";
import { loadAverage } from "./support/figures.ts";
import type { Sql } from "postgres";
import { insertApiKey } from "../server/db/api-keys.ts";
import { upsertEvents } from "../server/db/events.ts";
import { EventBatch } from "../shared/event-schema.ts";
import { realisticEvents } from "./support/realistic-events.ts";
import { seededBenchDatabase, startServerProcess } from "./support/bench-server.ts";
import { sizeAndRuns } from "./support/bench-args.ts";

const UNREVIEWED_CONTRIBUTORS = 10;
const USAGE = `Usage: deno run -A scripts/bench-pages.ts [--size N] [--runs N]

  --size N   events seeded before timing (default 100000)
  --runs N   timed requests of each page (default 200)

Besides them, ${UNREVIEWED_CONTRIBUTORS} unreviewed contributors with 1,000 events each in the coming week
(a flood the front page must hold to its share). PGlite in a temporary directory, or PostgreSQL
when TEST_DATABASE_URL is set.`;

const { size: SIZE, runs: RUNS } = sizeAndRuns(USAGE, { size: 100_000, runs: 200 });
const WARM_UP = 20;
const TARGET_MS = 50;
const QUERIES = [
  "rust",
  "kubernetes workshop",
  "machine learning",
  "data engineering meetup",
  "security",
  "web performance",
  "cloud",
  "hands-on session about databases",
];

const database = await seededBenchDatabase(SIZE, "bench-pages-", {
  alsoSeed: (sql) => seedUnreviewedFlood(sql, UNREVIEWED_CONTRIBUTORS),
});
try {
  console.log(
    `${database.label}, ${SIZE} events (loaded in ` +
      `${(database.loadMs / 1000).toFixed(0)} s), ${RUNS} requests of each page, concurrency 1, ` +
      `load average ${loadAverage().toFixed(1)} on ${navigator.hardwareConcurrency} cores`,
  );
  const server = await startServerProcess(database);
  try {
    await measure(server.url, database.eventId);
  } finally {
    await server.stop();
  }
} finally {
  await database.drop();
}

/** `contributors` unreviewed contributors with 1,000 events each, starting in the coming week. */
async function seedUnreviewedFlood(sql: Sql, contributors: number): Promise<void> {
  const soon = Date.now() + 3_600_000;
  for (let c = 0; c < contributors; c++) {
    const key = await insertApiKey(sql, {
      contributor: `signup-${c}@example.org`,
      name: "flood",
      scopes: ["events:write"],
      rateLimitPerMinute: 10,
      digest: crypto.getRandomValues(new Uint8Array(32)),
      prefix: `evk_fl${String(c).padStart(6, "0")}`,
      createdBy: `dashboard:signup-${c}@example.org`,
      selfService: true,
    });
    for (let at = 0; at < 1000; at += 100) {
      const events = realisticEvents(10_000_000 + c * 1000 + at, 100).map((e, i) =>
        EventBatch.parse({
          events: [{ ...e, starts_at: new Date(soon + (at + i) * 600_000).toISOString() }],
        }).events[0]
      );
      await upsertEvents(sql, { contributorId: key.contributor_id, keyId: key.id }, events);
    }
  }
}

/** The link to the next page in a listing page, to time a page reached by cursor. */
async function nextPagePath(baseUrl: string, path: string): Promise<string> {
  const html = await (await fetch(`${baseUrl}${path}`)).text();
  const href = /<a href="([^"]+)" rel="next">/.exec(html)?.[1];
  if (!href) throw new Error(`No next page on ${path}`);
  return href.replaceAll("&amp;", "&");
}

/** The home page at the list API's second page (its plain order), as old links reach it. */
async function apiCursorPath(baseUrl: string): Promise<string> {
  const page = await (await fetch(`${baseUrl}/api/v1/events`)).json();
  return `/?cursor=${page.next_cursor}`;
}

/** Times the pages round-robin, so that they share the machine's noise. */
async function measure(baseUrl: string, eventId: string): Promise<void> {
  const q = (i: number) => encodeURIComponent(QUERIES[i % QUERIES.length]);
  const pages: Record<string, (i: number) => string> = {
    "home": () => "/",
    "home, page 2 (cursor)": ((later) => () => later)(await nextPagePath(baseUrl, "/")),
    "home, city + in person": () => "/?city=Berlin&attendance=in_person",
    "home, this month": () => "/?from=2027-03-01&to=2027-03-31",
    "search": (i) => `/?q=${q(i)}`,
    "search, city filter": (i) => `/?q=${q(i)}&city=Berlin`,
    "search, 100 results": (i) => `/?q=${q(i)}&limit=100`,
    "event page": () => `/events/${eventId}`,
    "ICS feed, city (100)": () => "/events.ics?city=Berlin",
    "ICS feed (100)": () => "/events.ics",
    "home, API cursor (plain order)": ((later) => () => later)(
      await apiCursorPath(baseUrl),
    ),
  };
  const times: Record<string, number[]> = Object.fromEntries(
    Object.keys(pages).map((name) => [name, []]),
  );
  const entries = Object.entries(pages);
  let seed = 7;
  const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  for (let i = 0; i < RUNS + WARM_UP; i++) {
    // A new order each round: a page that always followed the heavy feed would pay for its
    // garbage collection.
    const round = entries.map((e) => ({ e, k: random() })).sort((a, b) => a.k - b.k)
      .map(({ e }) => e);
    for (const [name, path] of round) {
      const t = performance.now();
      const res = await fetch(`${baseUrl}${path(i)}`);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${path(i)} answered ${res.status}`);
      // The first rounds warm caches and prepared statements.
      if (i >= WARM_UP) times[name].push(performance.now() - t);
    }
  }
  console.log(`  (load average after: ${loadAverage().toFixed(1)})`);
  for (const [name, ms] of Object.entries(times)) {
    const p95 = percentile(ms, 95);
    const mark = name.startsWith("home") || name.startsWith("search")
      ? (p95 <= TARGET_MS ? "  within target" : `  OVER the ${TARGET_MS} ms target`)
      : "";
    console.log(
      `  ${name.padEnd(24)} p50 ${fmt(percentile(ms, 50))} ms   p95 ${fmt(p95)} ms${mark}`,
    );
  }
}
