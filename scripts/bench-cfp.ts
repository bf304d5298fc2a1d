/**
 * The open-CFP listing's speed: GET /api/v1/events?cfp=open (soonest deadline first) at a size,
 * on PostgreSQL when TEST_DATABASE_URL is set, else on PGlite. A tenth of the seeded events get a
 * call for papers (deadlines from 60 days ago to 120 days ahead, one in ten without a deadline);
 * the listing is read through the server process as deployed, first pages and later pages by
 * cursor, alone and with a topic or city. Prints each figure's p50 and p95.
 *
 *   deno run -A scripts/bench-cfp.ts [--size 100000] [--runs 200]
 */
import { parseArgs } from "node:util";
import type { Sql } from "postgres";
import { seededBenchDatabase, startServerProcess } from "./support/bench-server.ts";
import { percentile } from "./support/stats.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    size: { type: "string", default: "100000" },
    runs: { type: "string", default: "200" },
  },
});
const SIZE = Number(values.size);
const RUNS = Number(values.runs);

/** Gives every tenth event a CFP closing before it starts (every hundredth without a deadline). */
async function addCalls(sql: Sql): Promise<void> {
  await sql`
    UPDATE events SET
      cfp_url = 'https://cfp.example.org/' || id,
      cfp_closes_at = CASE WHEN abs(hashtext(id::text)) % 10 = 0 THEN NULL
        ELSE least(starts_at - interval '1 day',
          now() + (abs(hashtext(id::text || 'd')) % 180 - 60) * interval '1 day') END
    WHERE abs(hashtext(id::text || 'c')) % 10 = 0`;
}

const db = await seededBenchDatabase(SIZE, "bench-cfp-", { alsoSeed: addCalls });
const server = await startServerProcess({ dataDir: db.dataDir, databaseUrl: db.databaseUrl });
try {
  const time = async (path: string) => {
    const started = performance.now();
    const res = await fetch(`${server.url}${path}`);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text}`);
    const ms = performance.now() - started;
    return { ms, body: path.startsWith("/api/") ? JSON.parse(text) : null };
  };
  const { body: first } = await time("/api/v1/events?cfp=open");
  const { body: later } = await time(
    `/api/v1/events?cfp=open&cursor=${encodeURIComponent(first.next_cursor)}`,
  );
  const paths: [string, string][] = [
    ["cfp=open, first page", "/api/v1/events?cfp=open"],
    ["cfp=open, limit 100", "/api/v1/events?cfp=open&limit=100"],
    ["cfp=open, third page", `/api/v1/events?cfp=open&cursor=${later.next_cursor}`],
    ["cfp=open&topic=rust", "/api/v1/events?cfp=open&topic=rust"],
    ["cfp=open&city=Lisbon", "/api/v1/events?cfp=open&city=Lisbon"],
    ["sort=cfp_closes_at (any CFP)", "/api/v1/events?sort=cfp_closes_at"],
    ["/cfp page", "/cfp"],
  ];
  for (const [, path] of paths) for (let i = 0; i < 5; i++) await time(path); // warm-up
  const openNow = (await time("/api/v1/events?cfp=open&limit=100")).body.data.length;
  console.log(
    `${db.label}, ${SIZE.toLocaleString("en")} events, ${RUNS} runs each; a first page of 100 ` +
      `open CFPs held ${openNow}; seeding took ${(db.loadMs / 1000).toFixed(0)} s`,
  );
  console.log("| Request | p50 ms | p95 ms |");
  console.log("| --- | ---: | ---: |");
  for (const [name, path] of paths) {
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) ms.push((await time(path)).ms);
    console.log(
      `| ${name} | ${percentile(ms, 50).toFixed(1)} | ${percentile(ms, 95).toFixed(1)} |`,
    );
  }
} finally {
  await server.stop();
  await db.drop();
}
