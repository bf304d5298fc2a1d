/**
 * The embedded database survives the server being killed (SIGKILL, no chance to clean up) in the
 * middle of batches: after a restart on the same data directory every acknowledged batch is there
 * whole, no batch is there in part, and the directory opens cleanly (issue 12).
 */
import assert from "node:assert/strict";
import { createTestDatabase } from "../../dev-support/databases.ts";
import { generateApiKey } from "../../shared/api-key-format.ts";
import { openDatabase } from "../../server/db/connect.ts";
import { sampleEvent } from "../support/events.ts";

const DENO = new URL("../../node_modules/deno/deno", import.meta.url).pathname;
const MAIN = new URL("../../server/main.ts", import.meta.url).pathname;
const BATCH = 25;

/** `deno run server/main.ts` on `dataDir`; resolves once it listens. */
async function startServer(env: Record<string, string>) {
  const child = new Deno.Command(DENO, {
    args: ["run", "-A", MAIN],
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_REQUESTS: "false",
      EMBEDDINGS_WORKER: "external",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const decoder = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) output += decoder.decode(chunk);
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  for (let i = 0; i < 600 && !/Listening on/.test(output); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = /Listening on (http:\/\/\S+)/.exec(output)?.[1];
  if (!url) {
    child.kill("SIGKILL");
    await drained;
    throw new Error(`the server did not start:\n${output}`);
  }
  return { child, url, drained, output: () => output };
}

Deno.test("[pglite] SIGKILL during batches loses no acknowledged batch and leaves none in part", async () => {
  const location = await createTestDatabase("pglite");
  const adminKey = generateApiKey();
  const env = { DATA_DIR: location.dataDir, ADMIN_API_KEY: adminKey };
  try {
    const first = await startServer(env);
    const created = await fetch(`${first.url}/api/v1/admin/keys`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        contributor: "kill@example.org",
        name: "k",
        rate_limit_per_minute: 100_000,
      }),
    });
    const { data: { key } } = await created.json();
    const acknowledged: string[] = [];
    let killed = false;
    const pushers = Array.from({ length: 3 }, async (_, client) => {
      for (let n = 0; !killed; n++) {
        const batch = `p${client}-b${n}`;
        const events = Array.from(
          { length: BATCH },
          (_, i) => sampleEvent(i, { external_id: `${batch}-${i}` }),
        );
        try {
          const res = await fetch(`${first.url}/api/v1/events`, {
            method: "POST",
            headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
            body: JSON.stringify({ events }),
          });
          await res.body?.cancel();
          if (res.status === 200) acknowledged.push(batch);
        } catch {
          return; // The server is gone.
        }
      }
    });
    while (acknowledged.length < 10) await new Promise((r) => setTimeout(r, 20));
    first.child.kill("SIGKILL");
    killed = true;
    await Promise.all(pushers);
    await first.child.status;
    await first.drained;

    // The directory opens cleanly, through the server as an operator would restart it.
    const second = await startServer(env);
    try {
      const health = await fetch(`${second.url}/healthz`);
      assert.equal(health.status, 200, await health.text());
    } finally {
      second.child.kill("SIGTERM");
      await second.child.status;
      await second.drained;
    }
    const db = await openDatabase(location);
    try {
      const rows = await db.sql<{ batch: string; n: number }[]>`
        SELECT regexp_replace(external_id, '-[0-9]+$', '') AS batch, count(*)::int AS n
        FROM events GROUP BY 1`;
      const counts = new Map(rows.map((r) => [r.batch, r.n]));
      assert.deepEqual(rows.filter((r) => r.n !== BATCH), [], "a batch is stored in part");
      assert.deepEqual(acknowledged.filter((b) => counts.get(b) !== BATCH), [], "lost batches");
      console.log(`${acknowledged.length} acknowledged batches, ${rows.length} stored`);
    } finally {
      await db.close();
    }
  } finally {
    await location.drop();
  }
});
