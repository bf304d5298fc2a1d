/**
 * Two server processes and a separate embedding worker (`deno task worker`) on one PostgreSQL, as
 * an operator scales out: the rate limit is shared exactly under concurrent requests, nothing a
 * server acknowledged is lost, and a deletion or revocation made on one server holds on the other
 * at once. The local PostgreSQL 15 has no pgvector, so here the worker can only wait, losing
 * nothing; embedding by several workers is tested on PGlite in tests/embeddings.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createTestDatabase } from "../../dev-support/databases.ts";
import { generateApiKey } from "../../shared/api-key-format.ts";
import { startFakeOpenAI } from "../../dev-support/fake-openai.ts";
import { sampleEvent } from "../support/events.ts";
import { createApiKey, postBatch } from "../../dev-support/test-server.ts";
import { startServerProcess } from "../ingest/support/server-process.ts";
import { FormClient, signUp } from "../web/support/form-client.ts";
import { startWorkerProcess } from "./support/worker-process.ts";

if (testBackends().includes("postgres")) {
  Deno.test("[postgres] two servers and a worker process on one database", async (t) => {
    const location = await createTestDatabase("postgres");
    const fake = startFakeOpenAI();
    const adminKey = generateApiKey();
    const env = {
      DATABASE_URL: location.databaseUrl!,
      ADMIN_API_KEY: adminKey,
      EMBEDDINGS_WORKER: "external",
      OPENAI_API_KEY: fake.apiKey,
      OPENAI_BASE_URL: fake.baseUrl,
      EMBEDDINGS_DIMENSIONS: "16",
      PUBLIC_RATE_LIMIT_PER_MINUTE: "100000",
    };
    const [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    const worker = await startWorkerProcess(env);
    const servers = [a.url, b.url];
    const operator = (url: string) => ({ url, adminKey });
    try {
      await t.step("the rate limit is shared exactly by concurrent requests", async () => {
        // 3 a minute: one request frees up only after 20 s, longer than this burst takes.
        const key = await createApiKey(operator(a.url), { rate_limit_per_minute: 3 });
        const answers = await Promise.all(
          Array.from(
            { length: 30 },
            (_, i) => postBatch(servers[i % 2], key.key, { events: [sampleEvent(9000 + i)] }),
          ),
        );
        const statuses = answers.map((r) => r.status).sort();
        assert.deepEqual(statuses, [...Array(3).fill(200), ...Array(27).fill(429)]);
        for (const r of answers.filter((r) => r.status === 429)) {
          assert.ok(Number(r.headers.get("Retry-After")) >= 1);
        }
      });

      await t.step("every acknowledged batch is stored, whichever server took it", async () => {
        const keys = await Promise.all(
          [0, 1, 2, 3].map((i) =>
            createApiKey(operator(a.url), { contributor: `c${i}`, rate_limit_per_minute: 1000 })
          ),
        );
        const pushes = keys.flatMap((key, k) =>
          Array.from({ length: 8 }, (_, n) =>
            postBatch(servers[(k + n) % 2], key.key, {
              events: Array.from({ length: 50 }, (_, i) => sampleEvent(k * 1000 + n * 50 + i)),
            }))
        );
        const answers = await Promise.all(pushes);
        assert.deepEqual(answers.map((r) => r.status), Array(32).fill(200));
        const inserted = answers.reduce((sum, r) => sum + r.body.data.inserted, 0);
        assert.equal(inserted, 1600);
        for (const url of servers) {
          for (const k of [0, 3]) {
            const res = await fetch(`${url}/api/v1/events?external_id=evt-${k * 1000 + 399}`);
            assert.equal((await res.json()).data.length, 1, `${url} sees c${k}'s last event`);
          }
        }
        // Trusted, but without pgvector no vector can be stored: the worker waits, losing nothing.
        const trust = await fetch(`${a.url}/api/v1/admin/keys/${keys[0].id}/trust`, {
          method: "POST",
          headers: { Authorization: `Bearer ${adminKey}` },
        });
        assert.equal(trust.status, 200);
        await trust.body?.cancel();
        for (const url of servers) {
          const health = await (await fetch(`${url}/healthz`)).json();
          assert.equal(health.status, "ok");
          assert.equal(health.ai_search.available, false);
          assert.match(health.ai_search.reason, /pgvector/);
        }
        assert.equal(fake.requests.length, 0, "no embedding made where it cannot be stored");
        assert.equal(worker.exited(), false, "the worker keeps waiting for pgvector");
      });

      await t.step(
        "a deletion or revocation on one server holds on the other at once",
        async () => {
          const ada = new FormClient(a.url);
          await signUp(ada, "ada@example.org", "a long enough password");
          await ada.get("/dashboard");
          const made = await ada.post("/dashboard/keys", {
            name: "feed",
            scopes: "events:write",
            lifetime: "30",
          });
          assert.equal(made.status, 200, made.text.slice(0, 300));
          const key =
            /<code id="new-key" class="secret">(evk_[A-Za-z0-9]+)<\/code>/.exec(made.text)![1];
          const pushed = await postBatch(b.url, key, { events: [sampleEvent(77_777)] });
          assert.equal(pushed.status, 200);
          const listed = await (await fetch(`${b.url}/api/v1/events?external_id=evt-77777`)).json();
          const id = listed.data[0].id;

          await ada.get(`/dashboard/events/${id}/delete`);
          assert.equal((await ada.post(`/dashboard/events/${id}/delete`, {})).status, 303);
          const gone = await fetch(`${b.url}/api/v1/events/${id}`);
          assert.equal(gone.status, 404, "deleted on A, gone on B");
          await gone.body?.cancel();
          const page = await fetch(`${b.url}/events/${id}`);
          assert.equal(page.status, 404);
          await page.body?.cancel();

          const dashboard = await ada.get("/dashboard");
          const keyId = /\/dashboard\/keys\/([0-9a-f-]{36})\/revoke/.exec(dashboard.text)![1];
          await ada.get(`/dashboard/keys/${keyId}/revoke`);
          assert.equal((await ada.post(`/dashboard/keys/${keyId}/revoke`, {})).status, 303);
          const refused = await postBatch(b.url, key, { events: [sampleEvent(77_778)] });
          assert.equal(refused.status, 401, "revoked on A, refused on B");
        },
      );
    } finally {
      await worker.stop();
      await Promise.all([a.stop(), b.stop()]);
      await fake.close();
      await location.drop();
    }
  });
}
