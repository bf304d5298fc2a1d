/**
 * Search quality on real, labelled corpora (scripts/support/eval-corpora.ts), each on a throw-away
 * PGlite with the real local model: text, semantic and hybrid search and a plain BM25 reference
 * (scripts/support/eval-bm25.ts), per kind of query (literal, paraphrased, place_time), measured
 * by precision@10, nDCG@10 and recall@10.
 *
 *   deno run -A scripts/eval-search.ts [--corpus conferences|fosdem] [--verbose]
 *                                      [--record <label>] [--text-only] [--fusions]
 *                                      [--event-text STYLE] [--niceness N]
 *                                      [--rankings <file.json>] [--expansions]
 *
 * --record adds the run's figures under that label to docs/search-quality.json and rewrites
 * docs/search-quality.md from every recorded run (a run of one corpus replaces that corpus only).
 * --text-only skips the model (text and BM25 only): seconds instead of minutes. --fusions also
 * measures the hybrid fusions of FUSION_VARIANTS (recorded as hybrid:<name> rows), to choose one.
 * --event-text embeds events in another style than the worker's, to compare: "chars=300" (the
 * description's opening), "country" (the place with its country), or both, comma-separated.
 * --rankings writes, per query, its relevant events, the text and semantic pages and the two
 * candidate rankings hybrid search fused, for scripts/eval-fusion.ts to measure fusions offline.
 * --expansions also measures query expansion (EXPANSIONS), recorded as semantic:<name> and
 * hybrid:<name> rows.
 * --niceness is the model thread's (EMBEDDINGS_LOCAL_NICENESS; default the server's): figures do
 * not depend on it, but at 19 on a busy machine embedding a corpus takes many times longer.
 */
import { parseArgs } from "node:util";
import type { Sql } from "postgres";
import { openDatabase } from "../server/db/connect.ts";
import { migrate } from "../server/db/migrate.ts";
import { LocalProvider } from "../server/embeddings/local-provider.ts";
import type { AiSearch } from "../server/embeddings/ai-search.ts";
import { startAiSearch } from "../server/embeddings/start-ai-search.ts";
import { EmbeddingWorker } from "../server/embeddings/worker.ts";
import {
  embeddingText,
  EVENT_TEXT,
  type EventTextStyle,
} from "../server/embeddings/embedding-text.ts";
import { searchEvents, type SearchMode } from "../server/search/search-events.ts";
import { fuseHybrid, type FusionSettings, HYBRID_FUSION } from "../server/search/hybrid-fusion.ts";
import { type Match, type TextMatch, textMatches } from "../server/db/text-matches.ts";
import { vectorMatches } from "../server/db/vector-matches.ts";
import type { RecordedCorpus, RecordedQuery } from "./support/eval-rankings.ts";
import { upsertEvents } from "../server/db/events.ts";
import { setKeyTrust } from "../server/db/key-trust.ts";
import type { EventRecord } from "../shared/event-schema.ts";
import { insertWriterKey } from "../dev-support/writer-key.ts";
import { CORPUS_NAMES, type CorpusName, readCorpus } from "./support/eval-corpora.ts";
import { bm25Index } from "./support/eval-bm25.ts";
import { meanOf, measure, type Measures } from "./support/eval-metrics.ts";
import { QUERY_KINDS } from "./support/eval-kinds.ts";
import { type CorpusFigures, recordRun } from "./support/eval-report.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    verbose: { type: "boolean", default: false },
    corpus: { type: "string" },
    record: { type: "string" },
    "text-only": { type: "boolean", default: false },
    fusions: { type: "boolean", default: false },
    "event-text": { type: "string" },
    niceness: { type: "string" },
    rankings: { type: "string" },
    expansions: { type: "boolean", default: false },
  },
});
const eventTextStyle = eventTextOption(values["event-text"]);
if (values.corpus !== undefined && !(CORPUS_NAMES as readonly string[]).includes(values.corpus)) {
  throw new Error(`--corpus must be one of ${CORPUS_NAMES.join(", ")}, not ${values.corpus}`);
}
/** Fusions --fusions compares with the one search uses. */
const FUSION_VARIANTS: Record<string, FusionSettings> = {
  "weak-text-below-0.6": { ...HYBRID_FUSION, weakTextBelow: 0.6 },
  "weak-text-below-0.7": { ...HYBRID_FUSION, weakTextBelow: 0.7 },
  "weak-text-below-0.8": { ...HYBRID_FUSION, weakTextBelow: 0.8 },
  "partial-0.25": { ...HYBRID_FUSION, partial: 0.25 },
  "semantic-1.25": { ...HYBRID_FUSION, semantic: 1.25 },
};
/**
 * Query expansions --expansions measures: pseudo-relevance feedback in the model's space
 * (Rocchio: the query's unit vector plus half the mean unit vector of the feedback events), the
 * feedback being the query's three nearest events ("prf-neighbours") or the first three of its
 * text ranking ("prf-text").
 */
const EXPANSIONS = ["prf-neighbours", "prf-text"] as const;
const FEEDBACK_EVENTS = 3;
const FEEDBACK_WEIGHT = 0.5;
const MODES: SearchMode[] = values["text-only"] ? ["text"] : ["text", "semantic", "hybrid"];
const now = new Date();

const figures: Record<string, CorpusFigures> = {};
const rankings: Record<string, RecordedCorpus> = {};
for (const name of CORPUS_NAMES) {
  if (values.corpus !== undefined && values.corpus !== name) continue;
  figures[name] = await evaluate(name);
}
if (values.rankings) {
  await Deno.writeTextFile(values.rankings, JSON.stringify(rankings));
  console.log(`Rankings written to ${values.rankings}`);
}
if (values.record) {
  await recordRun(values.record, figures);
  console.log(`Recorded as "${values.record}" in docs/search-quality.md`);
}

async function evaluate(name: CorpusName): Promise<CorpusFigures> {
  const corpus = await readCorpus(name, now);
  return await withSearchDatabase(corpus.events, async (sql, ai, embedSeconds) => {
    await warnOnSharedLabels(
      sql,
      corpus.queries.filter((q) => q.kind === "paraphrased")
        .map((q) => ({ q: q.q, label: corpus.labelWords(q) })),
    );
    const bm25 = await bm25Index(sql);
    const measured: Record<string, Measures[]> = {};
    const externalIds = new Map(
      (await sql<{ id: string; external_id: string }[]>`SELECT id, external_id FROM events`)
        .map((r) => [r.id, r.external_id]),
    );
    const recorded: RecordedQuery[] = [];
    let short = 0;
    for (const query of corpus.queries) {
      const relevant = corpus.relevant(query);
      const line: string[] = [];
      const kept: RecordedQuery = {
        q: query.q,
        kind: query.kind,
        relevant: [...relevant],
        pages: {},
        text: [],
        semantic: [],
        expanded: {},
      };
      recorded.push(kept);
      // Records the candidates hybrid search fuses, and fuses them as search does.
      const fuse = (text: TextMatch[], semantic: Match[]) => {
        kept.text = text.map((m) => ({
          id: externalIds.get(m.id)!,
          score: m.score,
          everyWord: m.everyWord,
          coverage: m.coverage,
          known: m.known,
        }));
        kept.semantic = semantic.map((m) => ({ id: externalIds.get(m.id)!, score: m.score }));
        return fuseHybrid(text, semantic);
      };
      const record = (mode: string, ids: string[]) => {
        const m = measure(ids, relevant);
        for (const k of [query.kind, "all"]) (measured[`${k}/${mode}`] ??= []).push(m);
        line.push(`${mode}=${m.precision.toFixed(2)}`);
      };
      for (const mode of MODES) {
        const { hits } = await searchEvents(sql, ai, {
          q: query.q,
          mode,
          filters: corpus.filters,
          limit: 10,
          experiment: mode === "hybrid" && values.rankings ? { fuse } : undefined,
        });
        if (mode === "text" && hits.length < 10) short++;
        record(mode, hits.map((h) => h.event.external_id));
        kept.pages[mode] = hits.map((h) => h.event.external_id);
      }
      record("bm25", await bm25.rank(query.q, 10));
      for (const [name, fusion] of Object.entries(values.fusions ? FUSION_VARIANTS : {})) {
        const { hits } = await searchEvents(sql, ai, {
          q: query.q,
          mode: "hybrid",
          filters: corpus.filters,
          limit: 10,
          experiment: { fusion },
        });
        record(`hybrid:${name}`, hits.map((h) => h.event.external_id));
      }
      for (const expansion of values.expansions ? EXPANSIONS : []) {
        const queryVector = async (vector: number[]) => {
          const status = await ai.availability.status();
          if (!status.available) throw new Error(`AI search is unavailable: ${status.reason}`);
          const feedback = expansion === "prf-text"
            ? await textMatches(sql, query.q, corpus.filters, FEEDBACK_EVENTS)
            : await vectorMatches(
              sql,
              { vector, model: status.model, iterativeScan: status.iterativeScan },
              corpus.filters,
              FEEDBACK_EVENTS,
            );
          return await rocchio(sql, vector, feedback.map((m) => m.id));
        };
        // Records the expanded query's semantic candidates, fused as search fuses.
        const fuse = (text: TextMatch[], semantic: Match[]) => {
          kept.expanded[expansion] = semantic.map((m) => ({
            id: externalIds.get(m.id)!,
            score: m.score,
          }));
          return fuseHybrid(text, semantic);
        };
        for (const mode of ["semantic", "hybrid"] as const) {
          const { hits } = await searchEvents(sql, ai, {
            q: query.q,
            mode,
            filters: corpus.filters,
            limit: 10,
            experiment: { queryVector, fuse },
          });
          record(`${mode}:${expansion}`, hits.map((h) => h.event.external_id));
        }
      }
      if (values.fusions) {
        for (const mode of ["semantic", "hybrid"] as const) {
          const { hits } = await searchEvents(sql, ai, {
            q: query.q,
            mode,
            filters: corpus.filters,
            limit: 10,
            experiment: { queryText: "about" },
          });
          record(`${mode}:about-query`, hits.map((h) => h.event.external_id));
        }
      }
      if (values.verbose) {
        console.log(`${query.kind.padEnd(11)} ${line.join(" ").padEnd(52)} ${query.q}`);
      }
    }
    const results: CorpusFigures["results"] = {};
    for (const kind of [...QUERY_KINDS, "all"]) {
      for (
        const mode of [
          ...MODES,
          "bm25",
          ...Object.keys(FUSION_VARIANTS).map((n) => `hybrid:${n}`),
          "semantic:about-query",
          "hybrid:about-query",
          ...EXPANSIONS.flatMap((e) => [`semantic:${e}`, `hybrid:${e}`]),
        ]
      ) {
        const all = measured[`${kind}/${mode}`];
        if (all) (results[kind] ??= {})[mode] = { ...meanOf(all), n: all.length };
      }
    }
    const out: CorpusFigures = {
      source: corpus.source,
      events: corpus.events.length,
      queries: corpus.queries.length,
      text_short_pages: short,
      embed_seconds: Math.round(embedSeconds),
      results,
    };
    printCorpus(name, out);
    rankings[name] = { queries: recorded };
    return out;
  });
}

function printCorpus(name: string, f: CorpusFigures): void {
  console.log(
    `\n${name}: ${f.events} events, ${f.queries} queries; text answered fewer than ` +
      `10 results for ${f.text_short_pages}`,
  );
  console.log(`${"kind".padEnd(12)}${"mode".padEnd(30)}P@10    nDCG@10 R@10    n`);
  for (const [kind, modes] of Object.entries(f.results)) {
    for (const [mode, m] of Object.entries(modes)) {
      console.log(
        `${kind.padEnd(12)}${mode.padEnd(30)}${m.precision.toFixed(3)}   ${m.ndcg.toFixed(3)}   ` +
          `${m.recall.toFixed(3)}   ${m.n}`,
      );
    }
  }
}

/** Stores `events` under a trusted key in a fresh PGlite, embeds them all, then runs `use`. */
async function withSearchDatabase<T>(
  events: EventRecord[],
  use: (sql: Sql, ai: AiSearch, embedSeconds: number) => Promise<T>,
): Promise<T> {
  const dataDir = await Deno.makeTempDir({ prefix: "eval-search-" });
  const db = await openDatabase({ dataDir });
  await migrate(db.sql);
  const niceness = values.niceness === undefined ? undefined : Number(values.niceness);
  const ai = await startAiSearch(db, {
    provider: new LocalProvider({ niceness }),
    runWorker: false,
  });
  try {
    const writer = await insertWriterKey(db.sql, "eval");
    for (let i = 0; i < events.length; i += 100) {
      await upsertEvents(db.sql, writer, events.slice(i, i + 100));
    }
    await setKeyTrust(db.sql, writer.keyId, true, "eval");
    await db.sql`ANALYZE events`;
    if (values["text-only"]) return await use(db.sql, ai, 0);
    const status = await ai.availability.status();
    if (!status.available) throw new Error(`AI search is unavailable: ${status.reason}`);
    const started = performance.now();
    const worker = new EmbeddingWorker({
      sql: db.sql,
      provider: ai.provider,
      store: ai.availability,
      eventText: (e) => embeddingText(e, eventTextStyle),
    });
    const embedded = await worker.runUntilIdle();
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `Embedded ${embedded} events with ${ai.provider.model} in ${seconds.toFixed(0)} s ` +
        `(load average ${Deno.loadavg()[0].toFixed(1)}).`,
    );
    return await use(db.sql, ai, seconds);
  } finally {
    await ai.stop();
    await db.close();
    await Deno.remove(dataDir, { recursive: true });
  }
}

/** The query's unit vector plus FEEDBACK_WEIGHT times the mean unit vector of `ids`' vectors. */
async function rocchio(sql: Sql, vector: number[], ids: string[]): Promise<number[]> {
  const rows = await sql<{ embedding: string }[]>`
    SELECT embedding::text AS embedding FROM event_embeddings WHERE event_id = ANY(${ids})`;
  const unit = (v: number[]) => {
    const norm = Math.hypot(...v) || 1;
    return v.map((x) => x / norm);
  };
  const out = unit(vector);
  for (const row of rows) {
    const v = unit(JSON.parse(row.embedding));
    v.forEach((x, i) => out[i] += (FEEDBACK_WEIGHT * x) / rows.length);
  }
  return unit(out);
}

/** Says so when a paraphrased query shares a (stemmed) word with its topic's label. */
async function warnOnSharedLabels(sql: Sql, queries: { q: string; label: string }[]) {
  for (const { q, label } of queries) {
    const [row] = await sql<{ shared: boolean }[]>`
      SELECT to_tsvector('english', ${label})
        @@ replace(plainto_tsquery('english', ${q})::text, '&', '|')::tsquery AS shared`;
    if (row.shared) console.log(`warning: paraphrased query names its topic (${label}): ${q}`);
  }
}

/** The --event-text option as a style: the worker's, with what the option names changed. */
function eventTextOption(value: string | undefined): EventTextStyle {
  const style = { ...EVENT_TEXT };
  for (const part of value ? value.split(",") : []) {
    const chars = /^chars=(\d+)$/.exec(part);
    if (chars) style.descriptionChars = Number(chars[1]);
    else if (part === "country") style.country = true;
    else throw new Error(`--event-text: expected chars=N or country, not ${part}`);
  }
  if (value) console.log(`Events embedded as ${JSON.stringify(style)}`);
  return style;
}
