/**
 * What collapsing duplicate groups costs a read: the search-speed queries (text search and the
 * ?q= listing, 16 queries) with the default collapse and with collapse=false, in alternating
 * rounds on one database of --size realistic events; `--grouped N` first groups N% of them in
 * pairs (as detection would: group rows only). Prints p50 and p95 both ways and the ratio.
 *
 *   TEST_DATABASE_URL=... deno run -A scripts/bench-collapse.ts [--size 100000] [--runs 300]
 *     [--grouped 0]
 */
import { parseArgs } from "node:util";
import type { Sql } from "postgres";
import { openDatabase } from "../server/db/connect.ts";
import { listEvents } from "../server/db/event-reads.ts";
import { searchEvents } from "../server/search/search-events.ts";
import { seededBenchDatabase } from "./support/bench-server.ts";
import { TEXT_QUERIES, timeQueries } from "./support/bench-search-figures.ts";
import { percentile } from "./support/stats.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    size: { type: "string", default: "100000" },
    runs: { type: "string", default: "300" },
    grouped: { type: "string", default: "0" },
  },
});
const size = Number(values.size);
const runs = Number(values.runs);
const grouped = Number(values.grouped);

/** Pairs of neighbouring events (by id) made groups, `percent` of all events in them. */
async function groupPairs(sql: Sql, percent: number): Promise<void> {
  await sql`
    WITH pick AS (
      SELECT id, row_number() OVER (ORDER BY id) AS n FROM events
      ORDER BY id LIMIT (SELECT count(*) * ${percent} / 100 FROM events)
    )
    INSERT INTO event_group_members (event_id, group_id, canonical)
    SELECT p.id, c.id, p.id = c.id FROM pick p JOIN pick c ON c.n = p.n - (p.n + 1) % 2`;
  await sql`ANALYZE event_group_members`;
}

const db = await seededBenchDatabase(size, "bench-collapse", {
  alsoSeed: grouped > 0 ? (sql) => groupPairs(sql, grouped) : undefined,
});
const opened = await openDatabase({ dataDir: db.dataDir, databaseUrl: db.databaseUrl });
// Text search reads no vectors: AI search is said to be unavailable.
const ai = {
  availability: { status: () => Promise.resolve({ available: false, reason: "benchmark" }) },
} as unknown as Parameters<typeof searchEvents>[1];
try {
  const { sql } = opened;
  const readers = {
    "text search": (collapse: boolean) => (q: string) =>
      searchEvents(sql, ai, { q, mode: "text", filters: { collapse }, limit: 20 }),
    "?q= listing": (collapse: boolean) => (q: string) =>
      listEvents(sql, { q, collapse }, { limit: 20 }),
  };
  console.log(`${db.label}, ${size} events, ${grouped}% in groups; load ${Deno.loadavg()[0]}`);
  for (const [name, read] of Object.entries(readers)) {
    const wall: Record<string, number[]> = { on: [], off: [] };
    // Alternating rounds, so that both ways see the same load.
    for (let round = 0; round < 6; round++) {
      for (const collapse of round % 2 === 0 ? [true, false] : [false, true]) {
        const t = await timeQueries(Math.ceil(runs / 6), TEXT_QUERIES, read(collapse));
        wall[collapse ? "on" : "off"].push(...t.wall);
      }
    }
    const [on, off] = [wall.on, wall.off].map((w) => [percentile(w, 50), percentile(w, 95)]);
    console.log(
      `${name}: collapse p50 ${on[0].toFixed(1)} ms, p95 ${on[1].toFixed(1)} ms; collapse=false ` +
        `p50 ${off[0].toFixed(1)} ms, p95 ${off[1].toFixed(1)} ms; collapse costs ` +
        `${((on[0] / off[0] - 1) * 100).toFixed(0)}% at p50, ${
          ((on[1] / off[1] - 1) * 100).toFixed(0)
        }% at p95`,
    );
  }
  console.log(`load at end ${Deno.loadavg()[0]}`);
} finally {
  await opened.close();
  await db.drop();
}
