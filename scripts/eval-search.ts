/**
 * Search quality on two sets, each on a throw-away PGlite with the real local model, for text,
 * semantic and hybrid search and per query kind ("literal" queries use the answers' own words,
 * "paraphrased" ones share none with them, so only meaning can find the answers):
 *
 * - tech: 64 events written for this, 27 queries with one right answer each; recall@3 and MRR@10.
 * - conferences: 862 real conferences (tests/fixtures/conference-data/), 52 queries each judged
 *   against a topic file's labels; precision@10 (the share of the first ten results that carry the
 *   topic, out of ten or out of the topic's size when it has fewer conferences).
 *
 *   deno run -A scripts/eval-search.ts [--verbose] [--set tech|conferences]
 */
import { parseArgs } from "node:util";
import type { Sql } from "postgres";
import { openDatabase } from "../server/db/connect.ts";
import { migrate } from "../server/db/migrate.ts";
import { LocalProvider } from "../server/embeddings/local-provider.ts";
import type { AiSearch } from "../server/embeddings/ai-search.ts";
import { startAiSearch } from "../server/embeddings/start-ai-search.ts";
import { EmbeddingWorker } from "../server/embeddings/worker.ts";
import { searchEvents, type SearchMode } from "../server/search/search-events.ts";
import { upsertEvents } from "../server/db/events.ts";
import { setKeyTrust } from "../server/db/key-trust.ts";
import type { EventRecord } from "../shared/event-schema.ts";
import { insertWriterKey } from "../dev-support/writer-key.ts";
import { evalEvents } from "./support/eval-events.ts";
import { readConferenceData, topicLabel } from "./support/conference-events.ts";
import { EVAL_QUERIES, type QueryKind } from "./eval-search-data.ts";
import { CONFERENCE_QUERIES } from "./eval-search-conferences.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { verbose: { type: "boolean", default: false }, set: { type: "string" } },
});
const MODES: SearchMode[] = ["text", "semantic", "hybrid"];
const KINDS: (QueryKind | "all")[] = ["literal", "paraphrased", "all"];
/** Conferences of 2025-2027 are judged whether or not they are over. */
const EVERY_DATE = { from: new Date("2000-01-01T00:00:00Z") };

if (values.set === undefined || values.set === "tech") {
  await withSearchDatabase(evalEvents(), async (sql, ai) => {
    await warnOnSharedWords(sql, EVAL_QUERIES.map(([q, kind, target]) => ({ q, kind, target })));
    const ranks: Record<string, number[]> = {};
    for (const [q, kind, target] of EVAL_QUERIES) {
      const line: string[] = [];
      for (const mode of MODES) {
        const { hits } = await searchEvents(sql, ai, { q, mode, filters: {}, limit: 10 });
        const rank = hits.findIndex((h) => h.event.external_id === target) + 1;
        for (const k of [kind, "all"]) (ranks[`${mode}/${k}`] ??= []).push(rank);
        line.push(`${mode}=${rank || "-"}`);
      }
      if (values.verbose) console.log(`${kind.padEnd(11)} ${line.join(" ").padEnd(32)} ${q}`);
    }
    console.log(`\nTech events: ${header("R@3 / MRR")}`);
    for (const mode of MODES) {
      console.log(row(mode, (k) => {
        const r = ranks[`${mode}/${k}`];
        return `${fmt(recallAt(r, 3))} / ${fmt(mrr(r))}  (n=${r.length})`;
      }));
    }
  });
}

if (values.set === undefined || values.set === "conferences") {
  const data = await readConferenceData();
  await withSearchDatabase(data.events, async (sql, ai) => {
    await warnOnSharedLabels(sql);
    const precision: Record<string, number[]> = {};
    for (const [q, kind, topic] of CONFERENCE_QUERIES) {
      const relevant = data.byTopic.get(topic)!;
      const line: string[] = [];
      for (const mode of MODES) {
        const { hits } = await searchEvents(sql, ai, { q, mode, filters: EVERY_DATE, limit: 10 });
        const right = hits.filter((h) => relevant.has(h.event.external_id)).length;
        const p = right / Math.min(10, relevant.size);
        for (const k of [kind, "all"]) (precision[`${mode}/${k}`] ??= []).push(p);
        line.push(`${mode}=${fmt(p)}`);
      }
      if (values.verbose) console.log(`${kind.padEnd(11)} ${line.join(" ").padEnd(44)} ${q}`);
    }
    console.log(`\nConferences: ${header("P@10")}`);
    for (const mode of MODES) {
      console.log(row(mode, (k) => {
        const p = precision[`${mode}/${k}`];
        return `${fmt(p.reduce((s, x) => s + x, 0) / p.length)}  (n=${p.length})`;
      }));
    }
  });
}

/** Stores `events` under a trusted key in a fresh PGlite, embeds them all, then runs `use`. */
async function withSearchDatabase(
  events: EventRecord[],
  use: (sql: Sql, ai: AiSearch) => Promise<void>,
): Promise<void> {
  const dataDir = await Deno.makeTempDir({ prefix: "eval-search-" });
  const db = await openDatabase({ dataDir });
  await migrate(db.sql);
  const ai = await startAiSearch(db, { provider: new LocalProvider(), runWorker: false });
  try {
    const writer = await insertWriterKey(db.sql, "eval");
    for (let i = 0; i < events.length; i += 100) {
      await upsertEvents(db.sql, writer, events.slice(i, i + 100));
    }
    await setKeyTrust(db.sql, writer.keyId, true, "eval");
    const status = await ai.availability.status();
    if (!status.available) throw new Error(`AI search is unavailable: ${status.reason}`);
    const started = performance.now();
    const worker = new EmbeddingWorker({
      sql: db.sql,
      provider: ai.provider,
      store: ai.availability,
    });
    const embedded = await worker.runUntilIdle();
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `Embedded ${embedded} events with ${ai.provider.model} in ${seconds.toFixed(0)} s.`,
    );
    await use(db.sql, ai);
  } finally {
    await ai.stop();
    await db.close();
    await Deno.remove(dataDir, { recursive: true });
  }
}

function header(measure: string): string {
  return `${measure}\n${"mode".padEnd(9)}${KINDS.map((k) => k.padEnd(26)).join("")}`;
}

function row(mode: string, cell: (kind: QueryKind | "all") => string): string {
  return `${mode.padEnd(9)}${KINDS.map((k) => cell(k).padEnd(26)).join("")}`;
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
async function warnOnSharedWords(
  sql: Sql,
  queries: { q: string; kind: QueryKind; target: string }[],
): Promise<void> {
  for (const { q, kind, target } of queries) {
    if (kind !== "paraphrased") continue;
    const [row] = await sql<{ shared: boolean }[]>`
      SELECT e.search_vector @@ replace(plainto_tsquery('english', ${q})::text, '&', '|')::tsquery
        AS shared
      FROM events e WHERE e.external_id = ${target}`;
    if (row.shared) console.log(`warning: paraphrased query shares a word with its target: ${q}`);
  }
}

/** Says so when a "paraphrased" conference query shares a (stemmed) word with its topic. */
async function warnOnSharedLabels(sql: Sql): Promise<void> {
  for (const [q, kind, topic] of CONFERENCE_QUERIES) {
    const label = topicLabel(topic);
    if (kind !== "paraphrased" || label === null) continue;
    const [row] = await sql<{ shared: boolean }[]>`
      SELECT to_tsvector('english', ${`${label} ${topic}`})
        @@ replace(plainto_tsquery('english', ${q})::text, '&', '|')::tsquery AS shared`;
    if (row.shared) console.log(`warning: paraphrased query names its topic ${topic}: ${q}`);
  }
}
