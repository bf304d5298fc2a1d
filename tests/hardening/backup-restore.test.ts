/**
 * Backups of the embedded database, as operators take them: `npm run backup` against the running
 * server (also while contributors push), `npm run restore` into an empty data directory, and a
 * server started on the restored directory serves exactly what was backed up.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../server/db/connect.ts";
import {
  createApiKey,
  postBatch,
  startTestServer,
  type TestServer,
} from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { testBackends } from "../../dev-support/databases.ts";
import { startFakeOpenAI } from "../../dev-support/fake-openai.ts";
import { admin, eventually } from "../search/support.ts";
import { startNpmScript } from "./support/npm-script.ts";
import { FormClient, signUp } from "../web/support/form-client.ts";
import { allTableRows } from "./support/table-rows.ts";

function backupEnv(server: TestServer): Record<string, string> {
  return { EVENTS_API_URL: server.url, ADMIN_API_KEY: server.adminKey, EVENTS_API_KEY: "" };
}

/**
 * Keys of two contributors, a trusted one with vectors, a revoked one, a changed limit, and a site
 * account with its session.
 */
async function seed(server: TestServer): Promise<void> {
  await signUp(new FormClient(server.url), "ops@example.org", "a long enough password");
  const alpha = await createApiKey(server, { contributor: "alpha", rate_limit_per_minute: 500 });
  const beta = await createApiKey(server, { contributor: "beta" });
  const gone = await createApiKey(server, { contributor: "gamma" });
  for (let first = 0; first < 150; first += 50) {
    const events = Array.from({ length: 50 }, (_, i) =>
      sampleEvent(first + i, {
        title: `Rust meetup ${first + i} <b>&amp;</b> 'quotes'`,
        description: "Ownership, lifetimes; DROP TABLE events; -- and ünïcödé 🦀",
        starts_at: "2031-03-02T19:00:00",
        timezone: "Europe/Berlin",
        city: "Berlin",
        topics: ["rust", "systems"],
        price_min: 0,
        price_max: 12.5,
        currency: "EUR",
        latitude: 52.52,
        longitude: 13.405,
      }));
    assert.equal((await postBatch(server.url, alpha.key, { events })).status, 200);
  }
  await postBatch(server.url, beta.key, { events: [sampleEvent(1, { platform: "meetup" })] });
  await postBatch(server.url, gone.key, { events: [sampleEvent(7, { platform: "luma" })] });
  await admin(server, "POST", `/api/v1/admin/keys/${alpha.id}/trust`);
  await admin(server, "POST", `/api/v1/admin/keys/${gone.id}/revoke`);
  await admin(server, "PATCH", `/api/v1/admin/keys/${beta.id}`, { rate_limit_per_minute: 7 });
  await eventually("every trusted event has its vector", async () => {
    const health = await (await fetch(`${server.url}/healthz`)).json();
    return health.ai_search.waiting_for_vectors === 0;
  });
  // The trusted events are published to the fediverse in the background: a backup taken while
  // activities are still being sent would differ from the live rows a moment later.
  const sql = server.service.deps.db.sql;
  await eventually("federation has published everything", async () => {
    const [{ waiting }] = await sql<{ waiting: number }[]>`
      SELECT (SELECT count(*) FROM federation_pending)::int
        + (SELECT count(*) FROM federation_activities WHERE sent_at IS NULL)::int
        + (SELECT count(*) FROM federation_queue)::int AS waiting`;
    return waiting === 0;
  });
}

async function restoredRows(dataDir: string): Promise<Map<string, string[]>> {
  const db = await openDatabase({ dataDir });
  try {
    return await allTableRows(db.sql);
  } finally {
    await db.close();
  }
}

Deno.test("[pglite] a backup restores every row of every table: events, keys, vectors", async () => {
  const fake = startFakeOpenAI();
  const server = await startTestServer("pglite", {
    embeddings: fake.embeddingSettings(16),
  });
  const dir = await Deno.makeTempDir({ prefix: "events-backup-" });
  try {
    await seed(server);
    const file = join(dir, "nightly.tar.gz");
    const backup = await startNpmScript("backup", { args: [file], env: backupEnv(server) });
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /Backup written to .*nightly\.tar\.gz/);
    const live = await allTableRows(server.service.deps.db.sql);
    const dataDir = join(dir, "restored", "data");
    const restore = await startNpmScript("restore", { args: [file, "--data-dir", dataDir] });
    assert.equal(restore.code, 0, restore.stderr);
    assert.match(restore.stdout, /Restored 152 events and 3 keys into /);

    const restored = await restoredRows(dataDir);
    assert.deepEqual([...restored.keys()], [...live.keys()]);
    for (const [table, rows] of live) {
      assert.deepEqual(restored.get(table), rows, `table ${table} differs after restore`);
    }
    assert.equal(live.get("events")!.length, 152);
    assert.ok(live.get("event_embeddings")!.length >= 150, "vectors are part of the backup");
    assert.equal(live.get("accounts")!.length, 1, "site accounts are part of the backup");
    assert.equal(live.get("sessions")!.length, 1, "and their sessions");
  } finally {
    await server.close();
    await fake.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[pglite] a backup taken while batches arrive holds every acknowledged batch whole", async () => {
  const server = await startTestServer("pglite");
  const dir = await Deno.makeTempDir({ prefix: "events-backup-" });
  try {
    const key = await createApiKey(server, { rate_limit_per_minute: 10_000 });
    const acknowledged: number[] = [];
    let writing = true;
    const writer = (async () => {
      for (let batch = 0; writing && batch < 2_000; batch++) {
        const events = Array.from(
          { length: 25 },
          (_, i) => sampleEvent(batch * 100 + i, { title: `Batch ${batch} item ${i}` }),
        );
        const res = await postBatch(server.url, key.key, { events });
        assert.equal(res.status, 200);
        acknowledged.push(batch);
      }
    })();
    await eventually("a few batches are stored", () => Promise.resolve(acknowledged.length >= 3));
    const ackedBefore = acknowledged.length;
    const file = join(dir, "busy.tar.gz");
    const backup = await startNpmScript("backup", { args: [file], env: backupEnv(server) });
    writing = false;
    await writer;
    assert.equal(backup.code, 0, backup.stderr);
    assert.ok(acknowledged.length > ackedBefore, "batches kept arriving during the backup");

    const dataDir = join(dir, "data");
    const restore = await startNpmScript("restore", { args: [file, "--data-dir", dataDir] });
    assert.equal(restore.code, 0, restore.stderr);
    // One key: said in the singular ("1 keys" before).
    assert.match(restore.stdout, /Restored \d+ events and 1 key into /);
    const db = await openDatabase({ dataDir });
    try {
      const rows = await db.sql<{ batch: number; n: number }[]>`
        SELECT split_part(title, ' ', 2)::int AS batch, count(*)::int AS n
        FROM events GROUP BY 1 ORDER BY 1`;
      for (const { batch, n } of rows) assert.equal(n, 25, `batch ${batch} is partly restored`);
      const restored = new Set(rows.map((r) => r.batch));
      for (const batch of acknowledged.slice(0, ackedBefore)) {
        assert.ok(restored.has(batch), `batch ${batch}, acknowledged before the backup, is lost`);
      }
    } finally {
      await db.close();
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[pglite] restore refuses a data directory that holds anything, and damaged files", async () => {
  const dir = await Deno.makeTempDir({ prefix: "events-restore-" });
  try {
    const busy = join(dir, "data");
    await Deno.mkdir(busy);
    await Deno.writeTextFile(join(busy, "PG_VERSION"), "18\n");
    const damaged = join(dir, "damaged.tar.gz");
    await Deno.writeFile(damaged, new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3]));

    const refused = await startNpmScript("restore", { args: [damaged, "--data-dir", busy] });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Cannot restore into .*data: it is not empty/);
    assert.deepEqual([...Deno.readDirSync(busy)].map((e) => e.name), ["PG_VERSION"]);

    const fresh = join(dir, "fresh");
    const bad = await startNpmScript("restore", { args: [damaged, "--data-dir", fresh] });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /Cannot restore .*damaged\.tar\.gz: it is damaged or cut short/);
    const notGzip = await startNpmScript("restore", {
      args: [join(busy, "PG_VERSION"), "--data-dir", fresh],
    });
    assert.match(notGzip.stderr, /it is not a gzip file/);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "damaged.tar.gz",
      "data",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

for (const kind of testBackends()) {
  Deno.test(`[${kind}] only operators take backups; on PostgreSQL the answer points to pg_dump`, async () => {
    const server = await startTestServer(kind);
    try {
      const contributor = await createApiKey(server);
      const res = await fetch(`${server.url}/api/v1/admin/backup`, {
        headers: { Authorization: `Bearer ${contributor.key}` },
      });
      assert.equal(res.status, 403);
      assert.equal((await res.json()).code, "forbidden");
      const anonymous = await fetch(`${server.url}/api/v1/admin/backup`);
      assert.equal(anonymous.status, 401);
      await anonymous.body?.cancel();
      if (kind === "postgres") {
        const refused = await admin(server, "GET", "/api/v1/admin/backup");
        assert.equal(refused.status, 409);
        assert.match(refused.body.message, /pg_dump/);
        const script = await startNpmScript("backup", { args: [], env: backupEnv(server) });
        assert.equal(script.code, 1);
        assert.match(script.stderr, /409: .*pg_dump/);
      }
    } finally {
      await server.close();
    }
  });
}
