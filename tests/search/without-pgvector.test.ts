/**
 * A PostgreSQL without pgvector (the local PostgreSQL 15 has none): the server starts, text
 * search works, semantic search and /healthz say plainly why AI search is unavailable, and
 * trusted events wait for vectors rather than being lost.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { admin, ids, search } from "./support.ts";

if (testBackends().includes("postgres")) {
  Deno.test("[postgres] without pgvector, text search works and AI search says why it cannot", async () => {
    const server = await startTestApp("postgres");
    try {
      const key = await createApiKey(server);
      await postBatch(server.url, key.key, {
        events: [sampleEvent(1, { title: "Kubernetes operators workshop" })],
      });
      await admin(server, "POST", `/api/v1/admin/keys/${key.id}/trust`);

      const text = await search(server, { q: "kubernetes", mode: "text" });
      assert.equal(text.status, 200);
      assert.deepEqual(ids(text.body), ["evt-1"]);
      assert.equal(text.body.mode, "text");

      const semantic = await search(server, { q: "kubernetes", mode: "semantic" });
      assert.equal(semantic.status, 503);
      assert.equal(semantic.body.code, "service_unavailable");
      assert.match(semantic.body.message, /AI search is unavailable: .*pgvector/);

      const hybrid = await search(server, { q: "kubernetes", mode: "hybrid" });
      assert.equal(hybrid.status, 200);
      assert.deepEqual(ids(hybrid.body), ["evt-1"]);
      assert.match(hybrid.body.degraded, /pgvector.*text search alone/);

      const health = await (await server.fetch(`${server.url}/healthz`)).json();
      assert.equal(health.status, "ok");
      assert.equal(health.ai_search.available, false);
      assert.match(health.ai_search.reason, /pgvector/);

      // Trusted, but not in AI search: there is none here.
      const listed = await (await server.fetch(`${server.url}/api/v1/events`)).json();
      assert.equal(listed.data[0].in_ai_search, false);
      // Nothing was marked done or failed: the event still counts as waiting for its vector.
      const sql = server.service.deps.db.sql;
      const [{ claims }] = await sql`SELECT count(*)::int AS claims FROM embedding_claims`;
      assert.equal(claims, 0);
    } finally {
      await server.close();
    }
  });
}

Deno.test("[pglite] /healthz reports AI search available with the model and its backlog", async () => {
  const server = await startTestApp("pglite");
  try {
    const health = await (await server.fetch(`${server.url}/healthz`)).json();
    assert.equal(health.ai_search.available, true);
    assert.equal(health.ai_search.model, "local:use-lite:512");
    assert.equal(health.ai_search.waiting_for_vectors, 0);
    assert.equal(health.ai_search.worker, "in-process");
  } finally {
    await server.close();
  }
});

for (const kind of testBackends()) {
  Deno.test(`[${kind}] search needs q and a known mode, and says so`, async () => {
    const server = await startTestApp(kind);
    try {
      const missing = await search(server, { mode: "text" });
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body.details[0].path, ["query", "q"]);
      const badMode = await search(server, { q: "rust", mode: "vibes" });
      assert.equal(badMode.status, 400);
      assert.match(badMode.body.details[0].message, /text, semantic, hybrid/);
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] text search applies the list endpoint's filters`, async () => {
    const server = await startTestApp(kind);
    try {
      const key = await createApiKey(server);
      await postBatch(server.url, key.key, {
        events: [
          sampleEvent(1, { title: "Rust in Berlin", city: "Berlin" }),
          sampleEvent(2, { title: "Rust in Paris", city: "Paris" }),
          sampleEvent(3, { title: "Rust long ago", starts_at: "2020-01-01T10:00:00Z" }),
        ],
      });
      const berlin = await search(server, { q: "rust", mode: "text", city: "berlin" });
      assert.deepEqual(ids(berlin.body), ["evt-1"]);
      const upcoming = await search(server, { q: "rust", mode: "text" });
      assert.deepEqual(ids(upcoming.body).sort(), ["evt-1", "evt-2"]);
      const all = await search(server, { q: "rust", mode: "text", from: "2019-01-01" });
      assert.equal(all.body.data.length, 3);
      assert.ok(all.body.data.every((h: { score: number }) => h.score > 0));
    } finally {
      await server.close();
    }
  });
}
