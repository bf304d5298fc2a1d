import assert from "node:assert/strict";
import { LOCAL_MODEL, LocalProvider } from "../../server/embeddings/local-provider.ts";
import { EmbeddingProviderError } from "../../server/embeddings/provider.ts";

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

Deno.test("the local provider makes one 512-number unit vector per text, in order", async () => {
  const provider = new LocalProvider();
  try {
    const texts = ["Rust meetup in Berlin", "", "Kubernetes operators workshop"];
    const vectors = await provider.embed(texts);
    assert.equal(provider.model, LOCAL_MODEL);
    assert.equal(vectors.length, 3);
    for (const v of vectors) {
      assert.equal(v.length, 512);
      assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
    }
    // Order is kept: the same text alone gives the same vector as in the batch.
    const [alone] = await provider.embed(["Kubernetes operators workshop"]);
    assert.ok(dot(alone, vectors[2]) > 0.999);
  } finally {
    await provider.close();
  }
});

Deno.test("the local provider puts texts of like meaning nearer than unlike ones", async () => {
  const provider = new LocalProvider();
  try {
    const [query, related, unrelated] = await provider.embed([
      "machine learning conference",
      "A summit about artificial intelligence and neural networks",
      "Pottery class for beginners with clay and glaze",
    ]);
    assert.ok(dot(query, related) > dot(query, unrelated) + 0.1);
  } finally {
    await provider.close();
  }
});

Deno.test("a search query overtakes background work queued before it", async () => {
  // One thread: with two, the query goes to the second, which it starts, and the test would time
  // loading the model there against the background work on the first.
  const provider = new LocalProvider({ threads: 1 });
  try {
    await provider.embed(["warm up"]);
    const finished: string[] = [];
    const long = Array.from({ length: 48 }, (_, i) => `Background event number ${i} about cloud`);
    const background = provider.embed(long).then(() => finished.push("background"));
    const query = provider.embed(["rust"], { priority: "query" }).then(() =>
      finished.push("query")
    );
    await Promise.all([background, query]);
    assert.deepEqual(finished, ["query", "background"]);
  } finally {
    await provider.close();
  }
});

Deno.test("the thread that called embed keeps running while the model works", async () => {
  const provider = new LocalProvider();
  try {
    await provider.embed(["warm up"]);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = performance.now();
    const texts = Array.from(
      { length: 64 },
      (_, i) =>
        `Event ${i}: a long day of talks on distributed systems, databases and observability`,
    );
    await provider.embed(texts);
    const elapsed = performance.now() - started;
    clearInterval(timer);
    // Were the model on this thread, the timer could not fire while it computed.
    assert.ok(ticks >= elapsed / 10 / 4, `${ticks} ticks in ${Math.round(elapsed)} ms`);
  } finally {
    await provider.close();
  }
});

Deno.test("closing the provider fails the calls still waiting, as retryable", async () => {
  const provider = new LocalProvider();
  const pending = provider.embed(["one", "two", "three"]);
  await provider.close();
  await assert.rejects(pending, (e) => e instanceof EmbeddingProviderError && e.retryable);
});
