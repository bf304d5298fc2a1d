/**
 * A change to what is embedded per event (EMBEDDING_TEXT_VERSION) reaches the stored vectors:
 * vectors of an older text are made again in the background, the longest-outdated first, after the
 * events that have no vector yet; the old vector serves search until its replacement is stored,
 * and a text that comes out the same keeps its vector without a call to the model.
 */
import assert from "node:assert/strict";
import type { Sql } from "postgres";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../dev-support/fake-openai.ts";
import type { Database } from "../../server/db/connect.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { EventInput } from "../../shared/event-schema.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { setKeyTrust } from "../../server/db/key-trust.ts";
import { sampleEvent } from "../support/events.ts";
import { aiSearchCounts, saveEmbeddings } from "../../server/db/embeddings.ts";
import { claimOutdatedVectors } from "../../server/db/embedding-claims.ts";
import type { EmbeddableEvent } from "../../server/embeddings/embedding-text.ts";
import { OpenAIProvider } from "../../server/embeddings/openai-provider.ts";
import { startAiSearch } from "../../server/embeddings/start-ai-search.ts";
import { EmbeddingWorker } from "../../server/embeddings/worker.ts";

const MODEL = "test-model";

/** Writes `count` events of their own under a new key of `contributor`; returns their ids. */
async function write(
  sql: Sql,
  o: { contributor: string; count: number; trusted: boolean },
): Promise<string[]> {
  const writer = await insertWriterKey(sql, o.contributor);
  const events = Array.from({ length: o.count }, (_, i) =>
    EventInput.parse(sampleEvent(i, {
      external_id: `${o.contributor}-${i}`,
      title: `Event ${i} of ${o.contributor}`,
    })));
  const { eventIds } = await upsertEvents(sql, writer, events);
  if (o.trusted) await setKeyTrust(sql, writer.keyId, true, "test");
  return eventIds;
}

/** Vectors' versions by event id. */
async function versions(sql: Sql): Promise<Map<string, number>> {
  const rows = await sql<{ event_id: string; text_version: number }[]>`
    SELECT event_id, text_version FROM event_embeddings`;
  return new Map(rows.map((r) => [r.event_id, r.text_version]));
}

/**
 * Runs `body` on an embedded database with AI search prepared (no worker running) and a maker of
 * workers, each embedding `text` as its version of the embedded text, through a local stand-in of
 * the OpenAI API.
 */
async function withWorkers(
  o: { batchSize?: number; text: (version: number, e: EmbeddableEvent) => string },
  body: (run: {
    db: Database;
    sql: Sql;
    fake: FakeOpenAI;
    provider: OpenAIProvider;
    workerOf: (version: number) => EmbeddingWorker;
  }) => Promise<void>,
): Promise<void> {
  const db = await openTestDatabase("pglite");
  const fake = startFakeOpenAI();
  const provider = new OpenAIProvider({
    apiKey: fake.apiKey,
    baseUrl: fake.baseUrl,
    dimensions: 16,
  });
  const ai = await startAiSearch(db, { provider, runWorker: false });
  const workerOf = (version: number) =>
    new EmbeddingWorker({
      sql: db.sql,
      provider,
      store: ai.availability,
      ...(o.batchSize === undefined ? {} : { batchSize: o.batchSize }),
      textVersion: version,
      eventText: (e: EmbeddableEvent) => o.text(version, e),
      log: () => {},
    });
  try {
    await body({ db, sql: db.sql, fake, provider, workerOf });
  } finally {
    await ai.stop();
    await fake.close();
    await db.close();
  }
}

/** Backdates each event's vector so that `ids` run from the oldest vector to the newest. */
async function embeddedInOrder(sql: Sql, ids: string[]): Promise<void> {
  await sql`
    UPDATE event_embeddings v SET embedded_at = now() - (${ids.length} - r.n) * interval '1 hour'
    FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS r(id, n) WHERE v.event_id = r.id`;
}

Deno.test("[pglite] vectors of an older text are re-embedded oldest first, after new events, and serve search meanwhile", async () => {
  await withWorkers(
    { batchSize: 2, text: (v, e) => `version ${v}: ${e.title}` },
    async ({ sql, fake, provider, workerOf }) => {
      const old = await write(sql, { contributor: "early", count: 5, trusted: true });
      assert.equal(await workerOf(1).runUntilIdle(), 5);
      // Made from oldest to newest in this order, not the order of the ids.
      const byAge = [old[3], old[0], old[4], old[1], old[2]];
      await embeddedInOrder(sql, byAge);
      const fresh = await write(sql, { contributor: "newcomer", count: 2, trusted: true });

      const next = workerOf(2);
      const sentBefore = fake.requests.length;
      assert.equal(await next.runOnce(), 2);
      assert.deepEqual(
        [...(await versions(sql)).entries()].filter(([, v]) => v === 2).map(([id]) => id).sort(),
        [...fresh].sort(),
        "the events without a vector come first",
      );
      assert.equal(await next.runOnce(), 2);
      const afterOne = await versions(sql);
      assert.deepEqual([afterOne.get(byAge[0]), afterOne.get(byAge[1])], [2, 2], "oldest first");
      assert.deepEqual(byAge.slice(2).map((id) => afterOne.get(id)), [1, 1, 1]);
      const meanwhile = await aiSearchCounts(sql, provider.model);
      assert.deepEqual([meanwhile.inAiSearch, meanwhile.waiting], [7, 0], "no gap in AI search");

      assert.equal(await next.runUntilIdle(), 3);
      assert.deepEqual([...(await versions(sql)).values()], Array(7).fill(2));
      assert.deepEqual(
        fake.requests.slice(sentBefore).flatMap((r) => r.input).filter((t) =>
          !t.startsWith("version 2")
        ),
        [],
        "every vector was made again from the new text",
      );
      assert.equal(await workerOf(1).runOnce(), null, "a worker of the older text undoes nothing");
      assert.equal(await next.runOnce(), null);
    },
  );
});

Deno.test("[pglite] a text that comes out the same under a new version keeps its vector without the model", async () => {
  await withWorkers({ text: (_, e) => e.title }, async ({ db, fake, workerOf }) => {
    await write(db.sql, { contributor: "one", count: 4, trusted: true });
    assert.equal(await workerOf(1).runUntilIdle(), 4);
    const before = await db.sql`SELECT event_id, embedding::text FROM event_embeddings ORDER BY 1`;
    const sent = fake.requests.length;
    assert.equal(await workerOf(2).runUntilIdle(), 4);
    assert.equal(fake.requests.length, sent, "no text was sent to the provider");
    assert.deepEqual(
      await db.sql`SELECT event_id, embedding::text FROM event_embeddings ORDER BY 1`,
      before,
    );
    assert.deepEqual([...(await versions(db.sql)).values()], [2, 2, 2, 2]);
  });
});

for (const kind of testBackends()) {
  Deno.test(`[${kind}] only current vectors of AI search and of an older text are claimed for re-embedding, oldest first`, async () => {
    // Bookkeeping rows only: the claims and their order need no pgvector, so this runs on both.
    const db = await openTestDatabase(kind);
    try {
      const { sql } = db;
      const ids = await write(sql, { contributor: "trusted", count: 8, trusted: true });
      const [untrusted] = await write(sql, {
        contributor: "untrusted",
        count: 1,
        trusted: false,
      });
      const row = (id: string, version: number, model = MODEL) => ({ id, version, model });
      const rows = [
        row(ids[0], 1),
        row(ids[1], 0),
        row(ids[2], 1),
        row(ids[3], 2, MODEL), // already of the newest text
        row(ids[4], 3, MODEL), // of a newer server's text
        row(ids[5], 1, "another-model"), // not current: the ordinary queue's
        row(ids[6], 1), // its content changes below: the ordinary queue's
        row(ids[7], 1), // claimed by another worker below
        row(untrusted, 1), // not in AI search
      ];
      await sql`
        INSERT INTO event_embeddings (event_id, model, content_hash, text_hash, text_version)
        SELECT r.id, r.model, e.content_hash, 'hash of ' || r.id, r.version
        FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.model)}::text[],
                    ${rows.map((r) => r.version)}::int[]) AS r(id, model, version)
        JOIN events e ON e.id = r.id`;
      await embeddedInOrder(sql, [ids[2], ids[0], ids[1], ids[7], untrusted]);
      await sql`UPDATE events SET content_hash = 'edited' WHERE id = ${ids[6]}`;
      await sql`
        INSERT INTO embedding_claims (event_id, worker, claimed_until)
        VALUES (${ids[7]}, 'elsewhere', now() + interval '1 minute')`;

      const claim = { worker: "here", model: MODEL, claimMs: 60_000, textVersion: 2 };
      const first = await claimOutdatedVectors(sql, { ...claim, limit: 2 });
      // Version 0 before version 1; within a version, the oldest vector first.
      assert.deepEqual(first.map((e) => e.id).sort(), [ids[1], ids[2]].sort());
      const rest = await claimOutdatedVectors(sql, { ...claim, limit: 10 });
      assert.deepEqual(rest.map((e) => e.id), [ids[0]]);
      assert.equal(rest[0].vector_text_hash, `hash of ${ids[0]}`);

      // The text came out the same: the vector is kept, now of the new version.
      const saved = await saveEmbeddings(sql, {
        worker: "here",
        model: MODEL,
        textVersion: 2,
        items: [{
          eventId: ids[0],
          contentHash: rest[0].content_hash,
          textHash: `hash of ${ids[0]}`,
          vector: null,
        }],
      });
      assert.deepEqual(saved, [ids[0]]);
      const [kept] = await sql<{ text_version: number; claims: number }[]>`
        SELECT text_version, (SELECT count(*)::int FROM embedding_claims
                              WHERE event_id = ${ids[0]}) AS claims
        FROM event_embeddings WHERE event_id = ${ids[0]}`;
      assert.deepEqual({ ...kept }, { text_version: 2, claims: 0 });
      const left = await claimOutdatedVectors(sql, { ...claim, limit: 10 });
      assert.equal(left.length, 0, "the other two are still held by this worker");
    } finally {
      await db.close();
    }
  });
}
