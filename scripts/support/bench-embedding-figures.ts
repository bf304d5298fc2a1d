/**
 * How fast AI search catches up: events embedded per second by the OpenAI-protocol provider
 * (against the local fake of tests/support/fake-openai.ts, so the figure is this service's own
 * cost: claiming, requests, storing vectors and the HNSW index) on PGlite, the one database here
 * with pgvector.
 */
import { startFakeOpenAI } from "../../tests/support/fake-openai.ts";
import { createApiKey, postBatch, startTestServer } from "../../tests/support/test-server.ts";
import { realisticEvents } from "./realistic-events.ts";
import { type FigureLog, type Target } from "./figures.ts";

export interface OpenAIDrainOptions {
  /** Events waiting when the key is trusted. */
  events: number;
  /** Vector size asked of the fake (text-embedding-3-small's own is 1536). */
  dimensions: number;
  target?: Target;
}

/** Time from trusting a key with `events` events to every one of them in AI search. */
export async function benchOpenAIDrain(log: FigureLog, o: OpenAIDrainOptions): Promise<void> {
  const section = "Embedding, PGlite";
  const fake = startFakeOpenAI();
  const server = await startTestServer("pglite", {
    embeddings: {
      provider: "openai",
      openaiApiKey: fake.apiKey,
      openaiBaseUrl: fake.baseUrl,
      dimensions: o.dimensions,
    },
  });
  try {
    const key = await createApiKey(server, { rate_limit_per_minute: 100_000 });
    for (let first = 0; first < o.events; first += 100) {
      await postBatch(server.url, key.key, { events: realisticEvents(first, 100) });
    }
    const ai = server.service.deps.ai;
    const started = performance.now();
    const res = await fetch(`${server.url}/api/v1/admin/keys/${key.id}/trust`, {
      method: "POST",
      headers: { Authorization: `Bearer ${server.adminKey}` },
    });
    await res.body?.cancel();
    if (!res.ok) throw new Error(`Cannot trust the key: HTTP ${res.status}`);
    const deadline = started + 600_000;
    while ((await ai.health()).waiting_for_vectors !== 0) {
      if (performance.now() > deadline) throw new Error("Cannot drain the backlog in 10 minutes");
      await new Promise((r) => setTimeout(r, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    const texts = fake.requests.reduce((n, r) => n + r.input.length, 0);
    log.add({
      section,
      name: `OpenAI-protocol drain (local fake, ${o.dimensions} dims), ${o.events} events`,
      value: o.events / seconds,
      unit: "events/s",
      target: o.target,
      note: `${fake.requests.length} requests, ${(texts / fake.requests.length).toFixed(0)} ` +
        "texts per request",
    });
  } finally {
    await server.close();
    await fake.close();
  }
}
