/**
 * "In AI search" is one rule (server/db/ai-search-rule.ts), so every place that shows, finds or
 * counts events of AI search agrees, event by event, whatever state an event is in: listings'
 * in_ai_search, semantic search, the /healthz counts and the worker's queue.
 */
import assert from "node:assert/strict";
import type { Sql } from "postgres";
import { openTestDatabase } from "../../dev-support/databases.ts";
import { startFakeOpenAI } from "../../dev-support/fake-openai.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { sampleEvent } from "../support/events.ts";
import { EventInput } from "../../shared/event-schema.ts";
import { upsertEvents, type Writer } from "../../server/db/events.ts";
import { setKeyTrust } from "../../server/db/key-trust.ts";
import { revokeApiKey } from "../../server/db/api-keys.ts";
import { getEventsByIds } from "../../server/db/event-reads.ts";
import { rankByVector } from "../../server/search/ranked-events.ts";
import { aiSearchCounts } from "../../server/db/embeddings.ts";
import { claimEventsToEmbed } from "../../server/db/embedding-claims.ts";
import { OpenAIProvider } from "../../server/embeddings/openai-provider.ts";
import { startAiSearch } from "../../server/embeddings/start-ai-search.ts";
import { EmbeddingWorker } from "../../server/embeddings/worker.ts";

async function write(sql: Sql, writer: Writer, prefix: string, count: number): Promise<string[]> {
  // Each writer's talks in a month of their own: the same talks from three keys would be one
  // event's listings, which the worker's detection groups, and search shows once.
  const month = { t: "06", u: "07", r: "08" }[prefix] ?? "09";
  const events = Array.from(
    { length: count },
    (_, i) =>
      EventInput.parse(sampleEvent(i, {
        external_id: `${prefix}-${i}`,
        starts_at: `2030-${month}-01T18:00:00Z`,
      })),
  );
  return (await upsertEvents(sql, writer, events)).eventIds;
}

Deno.test("[pglite] listings, semantic search, counts and the worker's queue agree on AI search", async () => {
  const db = await openTestDatabase("pglite");
  const fake = startFakeOpenAI();
  const provider = new OpenAIProvider({
    apiKey: fake.apiKey,
    baseUrl: fake.baseUrl,
    dimensions: 32,
  });
  const ai = await startAiSearch(db, { provider, runWorker: false });
  try {
    const { sql } = db;
    const trusted = await insertWriterKey(sql, "trusted");
    const untrusted = await insertWriterKey(sql, "untrusted");
    const revoked = await insertWriterKey(sql, "revoked");
    const [stale, otherModel, ...current] = await write(sql, trusted, "t", 6);
    const untrustedIds = await write(sql, untrusted, "u", 2);
    const revokedIds = await write(sql, revoked, "r", 2);
    for (const key of [trusted, untrusted, revoked]) {
      await setKeyTrust(sql, key.keyId, true, "test");
    }
    const worker = new EmbeddingWorker({ sql, provider, store: ai.availability, log: () => {} });
    assert.equal(await worker.runUntilIdle(), 10);
    // Each event of AI search leaves it in a different way.
    await setKeyTrust(sql, untrusted.keyId, false, "test");
    await revokeApiKey(sql, revoked.keyId);
    await sql`UPDATE events SET content_hash = 'edited' WHERE id = ${stale}`;
    await sql`UPDATE event_embeddings SET model = 'another-model' WHERE event_id = ${otherModel}`;

    const all = [stale, otherModel, ...current, ...untrustedIds, ...revokedIds];
    const listed = (await getEventsByIds(sql, all)).filter((e) => e.in_ai_search).map((e) => e.id);
    assert.deepEqual(listed.sort(), [...current].sort());

    const [probe] = await provider.embed(["anything"]);
    const found = await rankByVector(
      sql,
      { vector: probe, model: provider.model, iterativeScan: true },
      {},
      100,
    );
    assert.deepEqual(found.map((hit) => hit.event.id).sort(), listed.sort());

    const counts = await aiSearchCounts(sql, provider.model);
    assert.equal(counts.inAiSearch, listed.length);
    assert.equal(counts.waiting, 2, "the edited event and the one of another model");

    const queued = await claimEventsToEmbed(sql, {
      worker: "test",
      model: provider.model,
      limit: 100,
      claimMs: 60_000,
    });
    assert.deepEqual(queued.map((e) => e.id).sort(), [stale, otherModel].sort());
    assert.equal((await ai.health()).in_ai_search, listed.length);
  } finally {
    await ai.stop();
    await fake.close();
    await db.close();
  }
});
