/**
 * `updated_since`: what is new since a client last looked, the same filter on the list endpoint,
 * the search endpoint and MCP's search_events (server/db/event-filters.ts).
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { connectClient } from "../mcp/support.ts";
import { call, type Json } from "./support.ts";

const event = (n: number, title: string) => ({
  external_id: `u-${n}`,
  source_url: `https://example.org/u/${n}`,
  title,
  starts_at: "2031-04-01T10:00:00Z",
});

for (const kind of testBackends()) {
  Deno.test(`[${kind}] updated_since shows only what was written since`, async () => {
    const server = await startTestServer(kind, { embeddingWorker: "external" });
    try {
      const key = await createApiKey(server, { contributor: "feeds" });
      await postBatch(server.url, key.key, { events: [event(1, "Zig meetup one")] });
      const first = (await call(server, { method: "GET", path: "/api/v1/events", key: null }))
        .body.data[0];
      const since = new Date(Date.parse(first.updated_at) + 1).toISOString();
      await new Promise((r) => setTimeout(r, 20));
      await postBatch(server.url, key.key, { events: [event(2, "Zig meetup two")] });
      const listed = async (path: string) =>
        (await call(server, { method: "GET", path, key: null })).body.data;

      const list = await listed(`/api/v1/events?updated_since=${encodeURIComponent(since)}`);
      assert.deepEqual(list.map((e: Json) => e.external_id), ["u-2"]);
      const all = await listed("/api/v1/events?updated_since=2000-01-01");
      assert.equal(all.length, 2);
      const found = await listed(
        `/api/v1/search?q=zig&mode=text&updated_since=${encodeURIComponent(since)}`,
      );
      assert.deepEqual(found.map((h: Json) => h.event.external_id), ["u-2"]);
      const bad = await call(server, {
        method: "GET",
        path: "/api/v1/events?updated_since=yesterday",
        key: null,
      });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body.details[0].path, ["query", "updated_since"]);

      const client = await connectClient(server.url, "2026-07-28");
      try {
        const result = await client.callTool("search_events", {
          query: "zig",
          mode: "text",
          updated_since: since,
        });
        const titles = result.structuredContent.results.map((e: Json) => e.title);
        assert.deepEqual(titles, ["Zig meetup two"]);
      } finally {
        await client.close();
      }

      // An edit brings the first event into what is new since.
      await postBatch(server.url, key.key, { events: [event(1, "Zig meetup one, moved")] });
      const after = await listed(`/api/v1/events?updated_since=${encodeURIComponent(since)}`);
      assert.deepEqual(after.map((e: Json) => e.external_id).sort(), ["u-1", "u-2"]);
    } finally {
      await server.close();
    }
  });
}
