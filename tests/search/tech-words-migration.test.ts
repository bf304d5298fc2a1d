/**
 * Migration 037 on a database that already holds events: the vectors of events spelling C#, C++,
 * .NET or a dotted name are computed again, their postings and statistics move with them, and
 * nothing else is touched (no federation activity, no change of content).
 */
import assert from "node:assert/strict";
import { EventInput } from "../../shared/event-schema.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { migrate } from "../../server/db/migrate.ts";
import { rankByText } from "../../server/search/ranked-events.ts";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { sampleEvent } from "../support/events.ts";
import { strayPostings } from "./support.ts";

/** event_search_vector as 001 made it, before 037. */
const BEFORE_037 = `
CREATE OR REPLACE FUNCTION event_search_vector(
  title text, description text, labels text[], event_type text,
  venue_name text, city text, country text, organiser_name text
) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english', coalesce(title, '')), 'A')
      || setweight(to_tsvector('english',
           coalesce(array_to_string(labels, ' '), '') || ' ' || coalesce(event_type, '')), 'B')
      || setweight(to_tsvector('english', concat_ws(' ', venue_name, city, country, organiser_name)), 'C')
      || setweight(to_tsvector('english', coalesce(description, '')), 'D')
$$`;

for (const kind of testBackends()) {
  Deno.test(`[${kind}] migration 037 re-reads the events that spell technologies, and only them`, async () => {
    const db = await openTestDatabase(kind);
    try {
      await db.sql.unsafe(BEFORE_037);
      await db.sql`DROP FUNCTION event_text_normalised(text)`;
      await db.sql`DELETE FROM schema_migrations WHERE version = 37`;
      const writer = await insertWriterKey(db.sql, "before-037");
      const titles = ["Node.js Interactive", "C# Days", "C++ Now", "Rust Nation"];
      await upsertEvents(
        db.sql,
        writer,
        titles.map((title, i) =>
          EventInput.parse(sampleEvent(i, {
            external_id: `e${i}`,
            title,
            starts_at: new Date(Date.now() + (i + 1) * 86_400_000).toISOString(),
          }))
        ),
      );
      const before = await db.sql<
        { external_id: string; updated_at: Date; content_hash: string }[]
      >`
        SELECT external_id, updated_at, content_hash FROM events ORDER BY external_id`;
      assert.equal(
        (await db.sql`SELECT 1 FROM events WHERE search_vector @@ 'node'::tsquery`).length,
        0,
      );

      assert.deepEqual(await migrate(db.sql), ["037_tech_words.sql"]);

      const titleOf = async (q: string) =>
        (await rankByText(db.sql, q, {}, 10)).map((h) => h.event.title);
      assert.deepEqual(await titleOf("node"), ["Node.js Interactive"]);
      assert.deepEqual(await titleOf("c#"), ["C# Days"]);
      assert.deepEqual(await titleOf("c++"), ["C++ Now"]);
      assert.deepEqual(await titleOf("rust"), ["Rust Nation"]);
      // Postings and statistics are those the stored vectors give.
      assert.equal(await strayPostings(db.sql), 0);
      const [{ wrong }] = await db.sql<{ wrong: number }[]>`
        SELECT count(*)::int AS wrong FROM (
          SELECT l, count(*) AS docs FROM events e, unnest(tsvector_to_array(e.search_vector)) AS l
          GROUP BY l
        ) AS held FULL JOIN (
          SELECT lexeme, sum(docs) AS docs FROM text_lexeme_deltas GROUP BY lexeme HAVING sum(docs) <> 0
        ) AS counted ON counted.lexeme = held.l
        WHERE held.docs IS DISTINCT FROM counted.docs`;
      assert.equal(wrong, 0);
      // Nothing else moved.
      assert.deepEqual(
        [
          ...await db
            .sql`SELECT external_id, updated_at, content_hash FROM events ORDER BY external_id`,
        ],
        [...before],
      );
    } finally {
      await db.close();
    }
  });
}
