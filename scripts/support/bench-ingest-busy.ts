/** Ingestion latency through the real server while the embedding worker idles and while it works. */
import { createApiKey, postBatch, startTestServer } from "../../tests/support/test-server.ts";
import { realisticEvents } from "./realistic-events.ts";
import { fmt, percentile } from "./stats.ts";

const BATCHES = 30;
const BACKLOG = 1500;

async function timedBatches(url: string, key: string, first: number): Promise<number[]> {
  const times: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const events = realisticEvents(first + b * 100, 100);
    const t = performance.now();
    const res = await postBatch(url, key, { events });
    times.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`Cannot ingest: ${res.status}`);
  }
  return times;
}

/** Prints ingestion p50/p95 of 100-event batches, worker idle vs embedding a backlog. */
export async function measureIngestionUnderEmbedding(): Promise<void> {
  const server = await startTestServer("pglite");
  try {
    const writer = await createApiKey(server, {
      contributor: "writer",
      rate_limit_per_minute: 100_000,
    });
    const bulk = await createApiKey(server, {
      contributor: "bulk",
      rate_limit_per_minute: 100_000,
    });
    for (let first = 0; first < BACKLOG; first += 100) {
      await postBatch(server.url, bulk.key, { events: realisticEvents(1_000_000 + first, 100) });
    }
    await timedBatches(server.url, writer.key, 2_000_000); // warm-up
    const idle = await timedBatches(server.url, writer.key, 3_000_000);

    await fetch(`${server.url}/api/v1/admin/keys/${bulk.id}/trust`, {
      method: "POST",
      headers: { Authorization: `Bearer ${server.adminKey}` },
    }).then((r) => r.body?.cancel());
    await new Promise((r) => setTimeout(r, 1000));
    const busy = await timedBatches(server.url, writer.key, 4_000_000);
    const health = await server.service.deps.ai.health();

    console.log(`\nIngestion through HTTP on PGlite, ${BATCHES} batches of 100 events, one client`);
    console.log(
      `  worker idle  p50 ${fmt(percentile(idle, 50))} ms   p95 ${fmt(percentile(idle, 95))} ms`,
    );
    console.log(
      `  worker busy  p50 ${fmt(percentile(busy, 50))} ms   p95 ${fmt(percentile(busy, 95))} ms`,
    );
    console.log(
      `  busy/idle p95 ratio ${(percentile(busy, 95) / percentile(idle, 95)).toFixed(2)} ` +
        `(still waiting for vectors at the end: ${health.waiting_for_vectors} of ${BACKLOG})`,
    );
  } finally {
    await server.close();
  }
}
