/**
 * EMBEDDINGS_LOCAL_THREADS: the local model on several threads, for a backlog to drain on every
 * idle core. Each thread has its own copy of the model and the same low priority, and a text gives
 * the same vector whichever thread embeds it.
 */
import assert from "node:assert/strict";
import { ConfigError, DEFAULT_LOCAL_THREADS, loadConfig } from "../../server/config.ts";
import { createEmbeddingProvider } from "../../server/embeddings/create-provider.ts";
import { LocalProvider } from "../../server/embeddings/local-provider.ts";

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

Deno.test({
  name: "two model threads share the batches in flight, at low priority, with the same vectors",
  // Per-thread priority is set on Linux only.
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const texts = ["Rust meetup in Berlin", "Kubernetes operators workshop", "PyData conference"];
    const one = new LocalProvider({ niceness: 17, threads: 1 });
    const two = new LocalProvider({ niceness: 17, threads: 2 });
    try {
      assert.equal(two.concurrency, 2, "a batch per thread");
      const alone = await one.embed(texts);
      await two.embed(texts.slice(0, 1));
      assert.equal(two.runningThreads, 1, "a second thread starts only when the first has work");
      const [first, second] = await Promise.all([two.embed(texts), two.embed(texts.slice(1))]);
      assert.equal(two.runningThreads, 2, "the second call went to a thread of its own");
      assert.deepEqual(await two.threadPriority(), { niceness: 17 });
      texts.forEach((_, i) => assert.ok(dot(first[i], alone[i]) > 0.999));
      second.forEach((v, i) => assert.ok(dot(v, alone[i + 1]) > 0.999));
    } finally {
      await one.close();
      await two.close();
    }
  },
});

Deno.test("EMBEDDINGS_LOCAL_THREADS is read as a whole number 1-16 and reaches the provider", async () => {
  assert.equal(loadConfig({}).embeddings.localThreads, DEFAULT_LOCAL_THREADS);
  const config = loadConfig({ EMBEDDINGS_LOCAL_THREADS: "2" });
  assert.equal(config.embeddings.localThreads, 2);
  for (const bad of ["0", "17", "many", "1.5"]) {
    assert.throws(
      () => loadConfig({ EMBEDDINGS_LOCAL_THREADS: bad }),
      (e) => e instanceof ConfigError && e.message.includes("EMBEDDINGS_LOCAL_THREADS"),
    );
  }
  const provider = createEmbeddingProvider(config.embeddings) as LocalProvider;
  try {
    assert.equal(provider.concurrency, 2);
  } finally {
    await provider.close();
  }
  assert.throws(() => new LocalProvider({ threads: 0 }), RangeError);
});

Deno.test("a closed local provider starts its model again on the next call", async () => {
  // AI search closes its provider when it stops; a provider handed to a later start still works.
  const provider = new LocalProvider({ threads: 2 });
  try {
    await provider.embed(["first life"]);
    await provider.close();
    assert.equal(provider.runningThreads, 0);
    const [vector] = await provider.embed(["second life"]);
    assert.equal(vector.length, 512);
    assert.equal(provider.runningThreads, 1);
  } finally {
    await provider.close();
  }
});
