/**
 * A regression guard for search quality: a slice of the FOSDEM corpus (tests/fixtures/fosdem-talks/,
 * the full evaluation is scripts/eval-search.ts) ranked by text, precision@10 per kind of query
 * held above a bar a few points under what it measured when written. Text only: the local model
 * embeds about 25 events a second, too slow for a test.
 */
import assert from "node:assert/strict";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { rankByText } from "../../server/search/ranked-events.ts";
import { readFosdemTalks } from "../../scripts/support/eval-fosdem.ts";
import { measure } from "../../scripts/support/eval-metrics.ts";

const TRACKS = ["Rust", "Python", "Kernel", "Geospatial", "LLVM", "Modern Email", "DNS", "Go"];
/** [query, track, kind] */
const QUERIES: [string, string, "literal" | "paraphrased"][] = [
  ["rust", "Rust", "literal"],
  ["python", "Python", "literal"],
  ["linux kernel", "Kernel", "literal"],
  ["geospatial", "Geospatial", "literal"],
  ["llvm", "LLVM", "literal"],
  ["modern email", "Modern Email", "literal"],
  ["dns", "DNS", "literal"],
  ["memory-safe systems language with a borrow checker and cargo", "Rust", "paraphrased"],
  ["maps, GIS and location data", "Geospatial", "paraphrased"],
  ["compiler infrastructure, Clang and intermediate representation", "LLVM", "paraphrased"],
  ["mail servers, IMAP and spam filtering", "Modern Email", "paraphrased"],
  ["domain name resolution, resolvers and zones", "DNS", "paraphrased"],
];
/** Measured with BM25F ranking (literal 0.743, paraphrased 0.560), less a margin. */
const BAR = { literal: 0.7, paraphrased: 0.53 };

for (const kind of testBackends()) {
  Deno.test(`[${kind}] text search keeps its precision on a slice of real talks`, async () => {
    const db = await openTestDatabase(kind);
    try {
      const data = await readFosdemTalks({
        now: new Date(),
        tracks: new Set(TRACKS),
        perTrack: 12,
        others: 200,
      });
      const writer = await insertWriterKey(db.sql, "quality");
      for (let i = 0; i < data.events.length; i += 100) {
        await upsertEvents(db.sql, writer, data.events.slice(i, i + 100));
      }
      const precision: Record<string, number[]> = {};
      for (const [q, track, kindOf] of QUERIES) {
        const relevant = new Set(
          [...data.talks.values()].filter((t) => t.track === track).map((t) => t.id),
        );
        const hits = await rankByText(db.sql, q, {}, 10);
        (precision[kindOf] ??= []).push(
          measure(hits.map((h) => h.event.external_id), relevant).precision,
        );
      }
      for (const [kindOf, bar] of Object.entries(BAR)) {
        const all = precision[kindOf];
        const mean = all.reduce((s, p) => s + p, 0) / all.length;
        console.log(`${kind} ${kindOf}: precision@10 ${mean.toFixed(3)}`);
        assert.ok(mean >= bar, `${kindOf} precision@10 ${mean.toFixed(3)} fell below ${bar}`);
      }
    } finally {
      await db.close();
    }
  });
}
