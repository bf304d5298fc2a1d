/**
 * Text search's page is BM25F as docs/search.md defines it, over every event that holds a word of
 * the query, with the statistics of the events stored at that moment: checked against a
 * brute-force scorer written here, on random corpora and queries, right after each push and
 * delete and edit, on both databases; and the postings the ranking reads are, after each, exactly those
 * the stored events give (an edit or delete that left one behind would skew every later bound). The scorer reads each event's lexemes with their fields from the
 * database (stemming is PostgreSQL's) and the query's words as event_text_terms reads them, and
 * counts everything else itself.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Sql } from "postgres";
import { EventInput } from "../../shared/event-schema.ts";
import { upsertEvents, type Writer } from "../../server/db/events.ts";
import { textMatches } from "../../server/db/text-matches.ts";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { sampleEvent } from "../support/events.ts";
import { strayPostings } from "./support.ts";

const VOCABULARY = [
  "rust",
  "python",
  "python",
  "kernel",
  "tracing",
  "test-driven",
  "test",
  "driven",
  "testdriven",
  "ci/cd",
  "the",
  "c",
  "scaling",
  "databases",
  "database",
];
const CITIES = ["Berlin", "Lisbon", "Paris"];

const words = (max: number) =>
  fc.array(fc.constantFrom(...VOCABULARY), { maxLength: max }).map((w) => w.join(" "));

/**
 * A second kind of corpus: many filler words and a few rarer ones, each rare word mostly alone in
 * its event. A query of rare words then has words every event on the page must hold, which the
 * ranking uses to score those events whole (server/db/text-matches.ts).
 */
const FILLERS = ["amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron"];
const RARE = ["kernel", "tracing", "scaling", "rust"];
const fillerWords = (max: number) =>
  fc.array(
    fc.oneof({ arbitrary: fc.constantFrom(...FILLERS), weight: 3 }, {
      arbitrary: fc.constantFrom(...RARE),
      weight: 1,
    }),
    { maxLength: max },
  ).map((w) => w.join(" "));

const eventArb = fc.record({
  title: words(4).map((t) => `${t} x`),
  description: words(14),
  topics: fc.array(fc.constantFrom("rust", "python", "kernel", "scaling"), { maxLength: 2 }),
  city: fc.constantFrom(...CITIES),
  day: fc.integer({ min: 1, max: 6 }),
});

const caseArb = fc.record({
  events: fc.array(eventArb, { minLength: 1, maxLength: 40 }),
  removed: fc.array(fc.nat(), { maxLength: 5 }),
  edited: fc.array(fc.record({ at: fc.nat(), words: words(6) }), { maxLength: 4 }),
  query: fc.array(fc.constantFrom(...VOCABULARY, "zyzzyva"), { minLength: 1, maxLength: 3 })
    .map((w) => w.join(" ")),
  limit: fc.integer({ min: 1, max: 12 }),
  city: fc.option(fc.constantFrom(...CITIES), { nil: undefined }),
  firstRead: fc.integer({ min: 1, max: 8 }),
  fewKept: fc.constantFrom(0, 1_000_000),
  holdersRead: fc.integer({ min: 1, max: 4 }),
  atOnce: fc.constantFrom(0, 2, 2_048),
});

const rareCaseArb = fc.record({
  events: fc.array(
    fc.record({
      title: fillerWords(3).map((t) => `${t} x`),
      description: fillerWords(14),
      topics: fc.constant([]),
      city: fc.constantFrom(...CITIES),
      day: fc.integer({ min: 1, max: 6 }),
    }),
    { minLength: 15, maxLength: 60 },
  ),
  removed: fc.array(fc.nat(), { maxLength: 5 }),
  edited: fc.array(fc.record({ at: fc.nat(), words: fillerWords(6) }), { maxLength: 4 }),
  query: fc.uniqueArray(fc.constantFrom(...RARE), { minLength: 2, maxLength: 3 })
    .map((w) => w.join(" ")),
  limit: fc.integer({ min: 1, max: 3 }),
  city: fc.option(fc.constantFrom(...CITIES), { nil: undefined }),
  firstRead: fc.constant(1),
  fewKept: fc.constantFrom(0, 1_000_000),
  holdersRead: fc.integer({ min: 1, max: 4 }),
  atOnce: fc.constantFrom(0, 2, 2_048),
});

interface Scored {
  id: string;
  score: number;
}

/** BM25F over every event, as docs/search.md defines it: the reference the page must equal. */
async function bruteForce(
  sql: Sql,
  o: { query: string; limit: number; city?: string },
): Promise<Scored[]> {
  const terms = await sql<{ parts: string[]; wholes: string[] }[]>`
    SELECT parts, wholes FROM event_text_search_terms(event_text_normalised(${o.query}), 10)`;
  const rows = await sql<
    { id: string; starts_at: Date; city: string; lexeme: string; weights: string[] }[]
  >`
    SELECT e.id, e.starts_at, e.city, u.lexeme, u.weights::text[] AS weights
    FROM events e, unnest(e.search_vector) AS u`;
  const events = new Map<string, { startsAt: number; city: string; tf: Map<string, number> }>();
  for (const r of rows) {
    let e = events.get(r.id);
    if (!e) events.set(r.id, e = { startsAt: r.starts_at.getTime(), city: r.city, tf: new Map() });
    const weight = (w: string) => (w === "A" ? 2 : w === "B" ? 1.5 : 1);
    e.tf.set(r.lexeme, r.weights.reduce((s, w) => s + weight(w), 0));
  }
  const n = events.size;
  const mean = [...events.values()].reduce((s, e) => s + e.tf.size, 0) / Math.max(n, 1);
  const holders = (l: string) => [...events.values()].filter((e) => e.tf.has(l)).length;
  const idfs = terms.map((w) => {
    const df = Math.min(...w.parts.map(holders)) + w.wholes.reduce((s, l) => s + holders(l), 0);
    return df === 0 ? 0 : Math.log(1 + (Math.max(n, df) - df + 0.5) / (df + 0.5));
  });
  const scored: (Scored & { startsAt: number })[] = [];
  for (const [id, e] of events) {
    if (o.city !== undefined && e.city !== o.city) continue;
    let score = 0;
    terms.forEach((w, i) => {
      const tf = (l: string) => e.tf.get(l) ?? 0;
      const f = Math.min(...w.parts.map(tf)) + w.wholes.reduce((s, l) => s + tf(l), 0);
      if (f > 0 && idfs[i] > 0) {
        score += idfs[i] * (f * (1.2 + 1) / (f + 1.2 * ((1 - 0.75) + 0.75 * e.tf.size / mean)));
      }
    });
    if (score > 0) scored.push({ id, score, startsAt: e.startsAt });
  }
  scored.sort((a, b) =>
    b.score - a.score || a.startsAt - b.startsAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
  return scored.slice(0, o.limit).map(({ id, score }) => ({ id, score }));
}

type RandomEvent = typeof eventArb extends fc.Arbitrary<infer T> ? T : never;

async function store(sql: Sql, writer: Writer, events: RandomEvent[]) {
  const inputs = eventInputs(events);
  for (let i = 0; i < inputs.length; i += 15) {
    await upsertEvents(sql, writer, inputs.slice(i, i + 15));
  }
}

/** The events as pushed: the i-th is external id i, so pushing it again edits it. */
function eventInputs(events: RandomEvent[]) {
  const day = Date.now() + 86_400_000;
  return events.map((e, i) =>
    EventInput.parse(sampleEvent(i, {
      title: e.title,
      description: e.description === "" ? undefined : e.description,
      topics: e.topics,
      city: e.city,
      starts_at: new Date(day + e.day * 86_400_000).toISOString(),
    }))
  );
}

for (const kind of testBackends()) {
  for (const [corpus, arb] of [["random words", caseArb], ["rare words", rareCaseArb]] as const) {
    Deno.test(`[${kind}] the text page is BM25F over every event holding a word, with current statistics (${corpus})`, async () => {
      const db = await openTestDatabase(kind);
      try {
        const writer = await insertWriterKey(db.sql, "exact");
        await fc.assert(
          fc.asyncProperty(arb as typeof caseArb, async (c) => {
            await db.sql`DELETE FROM events`;
            await store(db.sql, writer, c.events);
            const ids = (await db.sql<{ id: string }[]>`SELECT id FROM events ORDER BY id`)
              .map((r) => r.id);
            const removed = c.removed.map((i) => ids[i % ids.length]);
            await db.sql`DELETE FROM events WHERE id = ANY (${removed}::uuid[])`;
            const inputs = eventInputs(c.events);
            const edits = c.edited.map(({ at, words }) => {
              const input = inputs[at % inputs.length];
              return { ...input, description: `${input.description ?? ""} ${words}`.trim() };
            });
            // One edit per event in a batch: the upsert takes each external id once.
            for (const edit of new Map(edits.map((e) => [e.external_id, e])).values()) {
              await upsertEvents(db.sql, writer, [edit]);
            }
            assert.equal(await strayPostings(db.sql), 0);
            const filters = c.city === undefined ? {} : { city: c.city };
            const page = await textMatches(db.sql, c.query, filters, c.limit, {
              firstRead: c.firstRead,
              fewKept: c.fewKept,
              holdersRead: c.holdersRead,
              atOnce: c.atOnce,
            });
            const expected = await bruteForce(db.sql, { ...c, city: c.city });
            assert.deepEqual(page.map((m) => m.id), expected.map((m) => m.id));
            page.forEach((m, i) => assert.ok(Math.abs(m.score - expected[i].score) < 1e-9));
          }),
          // The rare corpus takes the conjunction step in about one case in twenty.
          { numRuns: (kind === "pglite" ? 40 : 60) * (corpus === "rare words" ? 2 : 1) },
        );
      } finally {
        await db.close();
      }
    });
  }
}
