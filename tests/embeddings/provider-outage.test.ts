/**
 * The embedding provider down for a while (500s, then 429 with Retry-After): events stay pending
 * and nothing is lost, /healthz says AI search is degraded and why, and once the provider is back
 * every event is embedded exactly once (issue 12).
 */
import assert from "node:assert/strict";
import { openTestDatabase } from "../../dev-support/databases.ts";
import { startFakeOpenAI } from "../../dev-support/fake-openai.ts";
import { seedEvents } from "../search/seed.ts";
import { startAiSearch } from "../../server/embeddings/start-ai-search.ts";
import type { AiSearchHealth } from "../../server/embeddings/ai-search.ts";

const EVENTS = 12;

Deno.test("[pglite] a provider outage leaves events pending, reports degraded, then embeds each once", async () => {
  const db = await openTestDatabase("pglite");
  const fake = startFakeOpenAI();
  const failures = 6 + 2;
  fake.failNext(6, { status: 500 });
  fake.failNext(2, { status: 429, retryAfter: 1 });
  await seedEvents(db.sql, EVENTS, { trusted: true });
  const ai = await startAiSearch(db, {
    provider: fake.embeddingSettings(32),
    runWorker: true,
    worker: { batchSize: 5, initialBackoffMs: 100, maxBackoffMs: 400, log: () => {} },
  });
  try {
    const seen: AiSearchHealth[] = [];
    for (let i = 0; i < 600; i++) {
      const health = await ai.health();
      seen.push(health);
      if (health.in_ai_search === EVENTS && health.state === "ok") break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const during = seen.find((h) => h.state === "degraded");
    assert.ok(during, `never degraded: ${JSON.stringify(seen.at(-1))}`);
    assert.equal(during.in_ai_search, 0, "nothing is in AI search while the provider fails");
    assert.equal(during.waiting_for_vectors, EVENTS, "every event is still pending");
    assert.match(during.last_error ?? "", /\w/);
    assert.ok(during.retrying_at, "the health report says when the worker tries again");
    const after = seen.at(-1)!;
    assert.deepEqual(
      [after.state, after.in_ai_search, after.waiting_for_vectors, after.last_error],
      ["ok", EVENTS, 0, null],
    );
    // Exactly one successful embedding per event: no text was sent twice once it went through.
    const succeeded = fake.requests.slice(failures).flatMap((r) => r.input);
    assert.equal(succeeded.length, EVENTS);
    assert.equal(new Set(succeeded).size, EVENTS);
  } finally {
    await ai.stop();
    await fake.close();
    await db.close();
  }
});
