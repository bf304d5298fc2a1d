/**
 * How fast AI search catches up: events embedded per second by the OpenAI-protocol provider
 * (against the local fake of dev-support/fake-openai.ts, so the figure is this service's own
 * cost: claiming, requests, storing vectors and the HNSW index) on PGlite, the one database here
 * with pgvector.
 */
import process from "node:process";
import { EventBatch } from "../../shared/event-schema.ts";
import { embeddingText } from "../../server/embeddings/embedding-text.ts";
import { LocalProvider } from "../../server/embeddings/local-provider.ts";
import { startFakeOpenAI } from "../../dev-support/fake-openai.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
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
    embeddings: fake.embeddingSettings(o.dimensions),
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

/**
 * The local model's own speed on this machine's texts: events embedded per second of wall time
 * and per second of CPU time (all of this process's threads; on a busy machine the second says
 * what an idle core would do).
 */
export async function benchLocalModel(log: FigureLog, o: { target?: Target } = {}): Promise<void> {
  const provider = new LocalProvider({ niceness: 0 });
  try {
    const events = realisticEvents(0, 160).map((e) => EventBatch.parse({ events: [e] }).events[0]);
    const texts = events.map((e) => embeddingText(e));
    await provider.embed(texts.slice(0, 32));
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 32; i < texts.length; i += 32) await provider.embed(texts.slice(i, i + 32));
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const n = texts.length - 32;
    const chars = texts.reduce((s, t) => s + t.length, 0) / texts.length;
    log.add({
      section: "Embedding, PGlite",
      name: `local model alone, ${n} event texts (${chars.toFixed(0)} characters on average)`,
      value: n / seconds,
      unit: "events/s",
      note: `${(n / ((used.user + used.system) / 1e6)).toFixed(1)} events per CPU second`,
      target: o.target,
    });
  } finally {
    await provider.close();
  }
}
