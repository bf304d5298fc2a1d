/**
 * Semantic and hybrid search honour the list endpoint's filters, also when a filter keeps only a
 * few of many events; here with the OpenAI protocol (a local fake) as the provider.
 */
import assert from "node:assert/strict";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { startFakeOpenAI } from "../../dev-support/fake-openai.ts";
import { admin, eventually, ids, search } from "./support.ts";

Deno.test("[pglite] semantic search with a strict filter still fills its page from matching events", async () => {
  const fake = startFakeOpenAI();
  const server = await startTestApp("pglite", {
    embeddings: {
      provider: "openai",
      openaiApiKey: fake.apiKey,
      openaiBaseUrl: fake.baseUrl,
      dimensions: 32,
    },
  });
  try {
    const key = await createApiKey(server, { rate_limit_per_minute: 1000 });
    // 300 events in Berlin about databases; 3 in Lisbon.
    for (let first = 0; first < 300; first += 100) {
      await postBatch(server.url, key.key, {
        events: Array.from(
          { length: 100 },
          (_, i) =>
            sampleEvent(first + i, { title: `Database night ${first + i}`, city: "Berlin" }),
        ),
      });
    }
    await postBatch(server.url, key.key, {
      events: [1, 2, 3].map((n) =>
        sampleEvent(1000 + n, { title: `Garden party ${n}`, city: "Lisbon" })
      ),
    });
    await admin(server, "POST", `/api/v1/admin/keys/${key.id}/trust`);
    await eventually("every event has its vector", async () => {
      const health = await (await server.fetch(`${server.url}/healthz`)).json();
      return health.ai_search.waiting_for_vectors === 0;
    });

    const lisbon = await search(server, { q: "Database night", mode: "semantic", city: "Lisbon" });
    assert.equal(lisbon.status, 200);
    assert.deepEqual(ids(lisbon.body).sort(), ["evt-1001", "evt-1002", "evt-1003"]);
    const page = await search(server, { q: "Database night", mode: "semantic", limit: "5" });
    assert.equal(page.body.data.length, 5);
    assert.ok(page.body.data.every((h: { event: { city: string } }) => h.event.city === "Berlin"));
    const scores = page.body.data.map((h: { score: number }) => h.score);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a), "best first");

    // The garden parties are nearest by meaning; a whole page leaves room for them, were the
    // filter not applied to both rankings.
    const hybrid = await search(server, {
      q: "Garden party night",
      mode: "hybrid",
      city: "Berlin",
      limit: "100",
    });
    assert.ok(hybrid.body.data.length > 0, "Berlin events are near by meaning");
    assert.deepEqual(
      hybrid.body.data.filter((h: { event: { city: string } }) => h.event.city !== "Berlin"),
      [],
    );
  } finally {
    await server.close();
    await fake.close();
  }
});
