/**
 * Semantic ranking within filters takes one of two paths (server/db/vector-matches.ts): the
 * exact distance to every event the filters keep, when the planner estimates they keep few, or
 * candidates from the vector index. Both must give the nearest events first, also when the
 * estimate is far off. Vectors are written straight into the store (PGlite: the only database
 * here with pgvector), so the right answer is known.
 */
import assert from "node:assert/strict";
import type { Sql } from "postgres";
import { EventInput } from "../../shared/event-schema.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { setKeyTrust } from "../../server/db/key-trust.ts";
import { prepareVectorStore } from "../../server/db/vector-store.ts";
import { vectorMatches } from "../../server/db/vector-matches.ts";
import { EMBEDDING_TEXT_VERSION } from "../../server/embeddings/embedding-text.ts";
import { openTestDatabase } from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { sampleEvent } from "../support/events.ts";

const MODEL = "test:vector-paths";
const DIMS = 8;

/** A unit vector pointing mostly along `axis`, turned a little by `turn`. */
function direction(axis: number, turn: number): number[] {
  const v: number[] = Array.from({ length: DIMS }, (_, i) => (i === axis ? 1 : 0));
  v[(axis + 1) % DIMS] = turn;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** Stores events (city and vector each) under one trusted key, in the order given. */
async function store(
  sql: Sql,
  events: { id: string; city: string; vector: number[] }[],
): Promise<void> {
  const writer = await insertWriterKey(sql, "vector-paths");
  for (let i = 0; i < events.length; i += 500) {
    const slice = events.slice(i, i + 500);
    await upsertEvents(
      sql,
      writer,
      slice.map((e) =>
        EventInput.parse(sampleEvent(0, {
          external_id: e.id,
          city: e.city,
          starts_at: "2031-03-01T18:00:00Z",
        }))
      ),
    );
    await sql`
      INSERT INTO event_embeddings
        (event_id, model, content_hash, text_hash, text_version, embedding)
      SELECT e.id, ${MODEL}, e.content_hash, 'test', ${EMBEDDING_TEXT_VERSION}, r.vector::vector
      FROM unnest(${slice.map((e) => e.id)}::text[], ${
      slice.map((e) => JSON.stringify(e.vector))
    }::text[]) AS r(external_id, vector)
      JOIN events e ON e.external_id = r.external_id`;
  }
  await setKeyTrust(sql, writer.keyId, true, "test");
}

async function nearest(sql: Sql, query: number[], city: string, limit: number) {
  const matches = await vectorMatches(
    sql,
    { vector: query, model: MODEL, iterativeScan: true },
    { city },
    limit,
  );
  const ids = await sql<{ id: string; external_id: string }[]>`
    SELECT id, external_id FROM events WHERE id = ANY(${matches.map((m) => m.id)}::uuid[])`;
  const byId = new Map(ids.map((r) => [r.id, r.external_id]));
  return matches.map((m) => byId.get(m.id)!);
}

Deno.test("[pglite] semantic ranking within filters is exact, however many events they keep", async (t) => {
  const db = await openTestDatabase("pglite");
  try {
    const status = await prepareVectorStore(db.sql, MODEL, DIMS);
    assert.ok(status.available, "PGlite has pgvector");
    const query = direction(0, 0);
    // Far from the query: most events, in Porto (kept by a city filter past the exact path's
    // bound of 4,000) and in Lisbon.
    let seed = 11;
    const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const far = Array.from({ length: 5_000 }, (_, i) => ({
      id: `far-${i}`,
      city: i % 10 === 0 ? "Lisbon" : "Porto",
      // Away from the query's axis, each its own (an index of many equal vectors is no graph).
      vector: Array.from({ length: DIMS }, (_, d) => (d === 0 ? -random() : random() - 0.5)),
    }));
    // Near it, stored last: a scan that stopped early would never reach them.
    const near = Array.from({ length: 25 }, (_, i) => ({
      id: `near-${String(i).padStart(2, "0")}`,
      city: i < 20 ? "Porto" : "Lisbon",
      vector: direction(0, (i + 1) / 100),
    }));
    await store(db.sql, [...far, ...near]);
    const porto = near.slice(0, 20).map((e) => e.id);
    const lisbon = near.slice(20).map((e) => e.id);

    await t.step("4,520 events kept, never analysed (estimated at a few dozen)", async () => {
      assert.deepEqual(await nearest(db.sql, query, "Porto", 20), porto);
    });

    await db.sql`ANALYZE events`;
    await t.step("520 events kept, estimated well: distances to each", async () => {
      assert.deepEqual(await nearest(db.sql, query, "Lisbon", 5), lisbon);
    });

    await t.step("4,520 events kept, estimated well: candidates from the index", async () => {
      // Spelt anew: the first step's estimate is remembered for a minute.
      assert.deepEqual(await nearest(db.sql, query, "PORTO", 20), porto);
    });
  } finally {
    await db.close();
  }
});
