/**
 * Webhook delivery when the receiver fails: retried on the schedule with the same webhook-id
 * until it answers 2xx; once the schedule is spent, the webhook is disabled, its owner sees it,
 * and saving the URL again enables it. The schedule is shortened here (WEBHOOK_RETRY_SECONDS).
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { alertSettings, call, eventually, startReceiver } from "./support.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a failing webhook is retried with the same id, then disabled`, async (t) => {
    // 500 twice, then 200; and a second receiver that always fails.
    const flaky = startReceiver([500, 500]);
    const broken = startReceiver(Array(20).fill(503));
    const server = await startTestApp(kind, {
      alerts: alertSettings({ webhooksAllowPrivate: true, webhookRetrySeconds: [0, 1] }),
      alertWorker: { pollMs: 100 },
      embeddingWorker: "external",
    });
    try {
      const owner = await createApiKey(server, { contributor: "ann", scopes: ["searches:write"] });
      const pusher = await createApiKey(server, { contributor: "feeds" });
      await call(server, {
        method: "POST",
        path: `/api/v1/admin/keys/${pusher.id}/trust`,
        key: server.adminKey,
      });
      const save = (name: string, url: string) =>
        call(server, {
          method: "POST",
          path: "/api/v1/me/searches",
          key: owner.key,
          body: { name, q: "kubernetes", webhook_url: url },
        });
      const flakySearch = (await save("flaky", flaky.url)).body.data;
      const brokenSearch = (await save("broken", broken.url)).body.data;
      await postBatch(server.url, pusher.key, {
        events: [{
          external_id: "k8s-1",
          source_url: "https://example.org/k8s",
          title: "Kubernetes operators day",
          starts_at: "2031-09-01T09:00:00Z",
        }],
      });

      await t.step(
        "after two 500s the third attempt delivers, all with one webhook-id",
        async () => {
          await eventually("three attempts", () => flaky.received.length >= 3);
          await new Promise((r) => setTimeout(r, 1_500));
          assert.equal(flaky.received.length, 3);
          const ids = new Set(flaky.received.map((r) => r.headers["webhook-id"]));
          assert.equal(ids.size, 1);
          const one = await call(server, {
            method: "GET",
            path: `/api/v1/me/searches/${flakySearch.id}`,
            key: owner.key,
          });
          assert.equal(one.body.data.deliveries[0].status, "delivered");
          assert.equal(one.body.data.deliveries[0].attempts, 3);
          assert.equal(one.body.data.webhook_disabled_at, null);
        },
      );

      await t.step("when the schedule is spent the webhook is disabled and says so", async () => {
        await eventually("the broken webhook is disabled", async () => {
          const one = await call(server, {
            method: "GET",
            path: `/api/v1/me/searches/${brokenSearch.id}`,
            key: owner.key,
          });
          return one.body.data.webhook_disabled_at !== null;
        });
        // The first attempt and one per wait of the schedule, all with the same id.
        assert.equal(broken.received.length, 3);
        assert.equal(new Set(broken.received.map((r) => r.headers["webhook-id"])).size, 1);
        const one = await call(server, {
          method: "GET",
          path: `/api/v1/me/searches/${brokenSearch.id}`,
          key: owner.key,
        });
        assert.equal(one.body.data.deliveries[0].status, "failed");
        assert.equal(one.body.data.deliveries[0].last_result, "HTTP 503");
      });

      await t.step(
        "a disabled webhook gets no new notices until its URL is saved again",
        async () => {
          const test = () =>
            call(server, {
              method: "POST",
              path: `/api/v1/me/searches/${brokenSearch.id}/test`,
              key: owner.key,
            });
          assert.equal((await test()).status, 202);
          await new Promise((r) => setTimeout(r, 500));
          assert.equal(broken.received.length, 3);
          const patched = await call(server, {
            method: "PATCH",
            path: `/api/v1/me/searches/${brokenSearch.id}`,
            key: owner.key,
            body: { webhook_url: flaky.url },
          });
          assert.equal(patched.body.data.webhook_disabled_at, null);
          const before = flaky.received.length;
          assert.equal((await test()).status, 202);
          await eventually("the test notice arrives", () => flaky.received.length > before);
          assert.equal(JSON.parse(flaky.received.at(-1)!.body).type, "alert.test");
        },
      );
    } finally {
      await server.close();
      await flaky.close();
      await broken.close();
    }
  });
}
