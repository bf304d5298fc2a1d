/**
 * Search quality on a fixed set: 64 tech events, 27 queries (some paraphrased so that they share
 * no word with their target). Prints recall@3 and MRR@10 for text, semantic and hybrid search,
 * per query kind. Runs on a throw-away PGlite with the real local model.
 *
 *   deno run -A scripts/eval-search.ts [--verbose]
 */
import type { Sql } from "postgres";
import { openDatabase } from "../server/db/connect.ts";
import { migrate } from "../server/db/migrate.ts";
import { LocalProvider } from "../server/embeddings/local-provider.ts";
import { AiSearch } from "../server/search/ai-search.ts";
import { searchEvents, type SearchMode } from "../server/search/search-events.ts";
import { seedEvalEvents } from "./support/seed-eval-events.ts";
import { EVAL_QUERIES, type QueryKind } from "./eval-search-data.ts";

const verbose = Deno.args.includes("--verbose");
const dataDir = await Deno.makeTempDir({ prefix: "eval-search-" });
const db = await openDatabase({ dataDir });
const ai = new AiSearch({ sql: db.sql, provider: new LocalProvider(), runWorker: true });
try {
  await migrate(db.sql);
  await seedEvalEvents(db.sql);
  const status = await ai.availability.status();
  if (!status.available) throw new Error(`AI search is unavailable: ${status.reason}`);
  const embedded = await ai.worker!.runUntilIdle();
  console.log(`Embedded ${embedded} events with ${ai.provider.model}.`);
  await checkParaphrases(db.sql);

  const modes: SearchMode[] = ["text", "semantic", "hybrid"];
  const ranks: Record<string, number[]> = {};
  for (const [q, kind, target] of EVAL_QUERIES) {
    const line: string[] = [];
    for (const mode of modes) {
      const { hits } = await searchEvents(db.sql, ai, { q, mode, filters: {}, limit: 10 });
      const rank = hits.findIndex((h) => h.event.external_id === target) + 1;
      (ranks[`${mode}/${kind}`] ??= []).push(rank);
      (ranks[`${mode}/all`] ??= []).push(rank);
      line.push(`${mode}=${rank || "-"}`);
    }
    if (verbose) console.log(`${kind.padEnd(11)} ${line.join(" ").padEnd(32)} ${q}`);
  }
  const kinds: (QueryKind | "all")[] = ["literal", "paraphrased", "all"];
  console.log(`\n${"mode".padEnd(9)}${kinds.map((k) => `${k} R@3 / MRR`.padEnd(24)).join("")}`);
  for (const mode of modes) {
    const cells = kinds.map((k) => {
      const r = ranks[`${mode}/${k}`];
      return `${fmt(recallAt(r, 3))} / ${fmt(mrr(r))}  (n=${r.length})`.padEnd(24);
    });
    console.log(`${mode.padEnd(9)}${cells.join("")}`);
  }
} finally {
  await ai.stop();
  await db.close();
  await Deno.remove(dataDir, { recursive: true });
}

function recallAt(ranks: number[], k: number): number {
  return ranks.filter((r) => r > 0 && r <= k).length / ranks.length;
}

function mrr(ranks: number[]): number {
  return ranks.reduce((s, r) => s + (r > 0 ? 1 / r : 0), 0) / ranks.length;
}

function fmt(x: number): string {
  return x.toFixed(3);
}

/** Says so when a "paraphrased" query shares a (stemmed) word with its target. */
async function checkParaphrases(sql: Sql): Promise<void> {
  for (const [q, kind, target] of EVAL_QUERIES) {
    if (kind !== "paraphrased") continue;
    const [row] = await sql<{ shared: boolean }[]>`
      SELECT e.search_vector @@ replace(plainto_tsquery('english', ${q})::text, '&', '|')::tsquery
        AS shared
      FROM events e WHERE e.external_id = ${target}`;
    if (row.shared) console.log(`warning: paraphrased query shares a word with its target: ${q}`);
  }
}
