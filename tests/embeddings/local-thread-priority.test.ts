import assert from "node:assert/strict";
import { getPriority } from "node:os";
import { ConfigError, loadConfig } from "../../server/config.ts";
import { createEmbeddingProvider } from "../../server/embeddings/create-provider.ts";
import { LocalProvider } from "../../server/embeddings/local-provider.ts";
import { DEFAULT_LOCAL_NICENESS } from "../../server/config.ts";

/** Niceness of each thread of this process, by thread name (field 19 of /proc/.../stat). */
function threadNiceness(): { name: string; nice: number; tid: string }[] {
  const threads = [];
  for (const entry of Deno.readDirSync(`/proc/${Deno.pid}/task`)) {
    const stat = Deno.readTextFileSync(`/proc/${Deno.pid}/task/${entry.name}/stat`);
    // The name is in parentheses and may hold spaces; the numeric fields follow it.
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    threads.push({ name, nice: Number(fields[16]), tid: entry.name });
  }
  return threads;
}

const linuxOnly = Deno.build.os !== "linux";

Deno.test({
  name: "the local model's thread runs at the lowest priority and the server's thread does not",
  ignore: linuxOnly,
  fn: async () => {
    // The niceness the test was started at (0 usually; a run under `nice` starts higher).
    const serverNiceness = getPriority(0);
    const provider = new LocalProvider();
    try {
      const [vector] = await provider.embed(["Rust meetup in Berlin"]);
      assert.equal(vector.length, 512);
      assert.deepEqual(await provider.threadPriority(), { niceness: DEFAULT_LOCAL_NICENESS });
      const threads = threadNiceness();
      const main = threads.find((t) => Number(t.tid) === Deno.pid)!;
      assert.equal(main.nice, serverNiceness);
      assert.ok(
        threads.some((t) => t.nice === DEFAULT_LOCAL_NICENESS),
        JSON.stringify(threads),
      );
    } finally {
      await provider.close();
    }
  },
});

Deno.test({
  name: "niceness 0 leaves the model's thread at the server's priority",
  ignore: linuxOnly,
  fn: async () => {
    const provider = new LocalProvider({ niceness: 0 });
    try {
      assert.deepEqual(await provider.threadPriority(), { niceness: 0 });
    } finally {
      await provider.close();
    }
  },
});

Deno.test("a niceness outside 0-19 is refused when the provider is made", () => {
  assert.throws(() => new LocalProvider({ niceness: 20 }), RangeError);
  assert.throws(() => new LocalProvider({ niceness: -1 }), RangeError);
  assert.throws(() => new LocalProvider({ niceness: 2.5 }), RangeError);
});

Deno.test("EMBEDDINGS_LOCAL_NICENESS is read as a whole number 0-19 and reaches the provider", async () => {
  // Unset, it is the one default, written in the settings schema.
  assert.equal(loadConfig({}).embeddings.localNiceness, DEFAULT_LOCAL_NICENESS);
  const config = loadConfig({ EMBEDDINGS_LOCAL_NICENESS: "5" });
  assert.equal(config.embeddings?.localNiceness, 5);
  for (const bad of ["20", "-1", "low", "1.5"]) {
    assert.throws(
      () => loadConfig({ EMBEDDINGS_LOCAL_NICENESS: bad }),
      (e) => e instanceof ConfigError && e.message.includes("EMBEDDINGS_LOCAL_NICENESS"),
    );
  }
  const provider = createEmbeddingProvider(config.embeddings!) as LocalProvider;
  try {
    if (!linuxOnly) assert.deepEqual(await provider.threadPriority(), { niceness: 5 });
  } finally {
    await provider.close();
  }
});
