/**
 * A server killed (SIGKILL) while it delivers a notice loses nothing: the notice was committed
 * with the push, the dead worker's claim runs out (ALERT_CLAIM_SECONDS), and the restarted server
 * delivers it, with the same webhook-id, so the receiver can drop the repeat.
 */
import assert from "node:assert/strict";
import { createTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { generateApiKey } from "../../shared/api-key-format.ts";
import { startServerProcess } from "../ingest/support/server-process.ts";
import { eventually, type Json } from "./support.ts";

/** A receiver that never answers its first request (the server dies meanwhile), then 200. */
function startHangingReceiver() {
  const received: { id: string; body: string }[] = [];
  const hang = Promise.withResolvers<void>();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    received.push({ id: req.headers.get("webhook-id") ?? "", body: await req.text() });
    if (received.length === 1) await hang.promise;
    return new Response("ok");
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/hook`,
    received,
    close: async () => {
      hang.resolve();
      await server.shutdown();
    },
  };
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a notice being delivered when the server dies is delivered after restart`, async () => {
    const location = await createTestDatabase(kind);
    const receiver = startHangingReceiver();
    const adminKey = generateApiKey();
    const env = {
      ADMIN_API_KEY: adminKey,
      ...(location.databaseUrl
        ? { DATABASE_URL: location.databaseUrl }
        : { DATA_DIR: location.dataDir }),
      WEBHOOKS_ALLOW_PRIVATE: "true",
      ALERT_CLAIM_SECONDS: "1",
      EMBEDDINGS_WORKER: "external",
    };
    let server = await startServerProcess(env);
    try {
      const api = async (method: string, path: string, key: string, body?: unknown) => {
        const res = await fetch(`${server.url}${path}`, {
          method,
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: await res.json() as Json };
      };
      const key = (await api("POST", "/api/v1/admin/keys", adminKey, {
        contributor: "ann",
        name: "all",
        scopes: ["events:write", "searches:write"],
      })).body.data;
      await api("POST", `/api/v1/admin/keys/${key.id}/trust`, adminKey);
      const saved = await api("POST", "/api/v1/me/searches", key.key, {
        name: "Elixir",
        q: "elixir",
        webhook_url: receiver.url,
      });
      assert.equal(saved.status, 201);
      const pushed = await api("POST", "/api/v1/events", key.key, {
        events: [{
          external_id: "ex-1",
          source_url: "https://example.org/elixir",
          title: "Elixir conf",
          starts_at: "2031-10-01T09:00:00Z",
        }],
      });
      assert.equal(pushed.status, 200);
      await eventually("the delivery is under way", () => receiver.received.length === 1);
      await server.kill();

      server = await startServerProcess(env);
      await eventually("the notice is delivered again", () => receiver.received.length === 2);
      assert.equal(receiver.received[1].id, receiver.received[0].id);
      assert.equal(receiver.received[1].body.includes('"event.new"'), true);
      await eventually("its delivery is recorded", async () => {
        const one = await api("GET", `/api/v1/me/searches/${saved.body.data.id}`, key.key);
        return one.body.data.deliveries[0]?.status === "delivered";
      });
    } finally {
      await server.stop();
      await receiver.close();
      await location.drop();
    }
  });
}
