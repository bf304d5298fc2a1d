/**
 * One search for every surface: the site, GET /api/v1/search and MCP search_events give the same
 * events in the same order for the same words and filters, and report the same interpretation.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { startFakeOpenAI } from "../../dev-support/fake-openai.ts";
import { connectClient } from "../mcp/support.ts";
import { admin, eventually, search } from "./support.ts";

const TITLES = [
  ["Rust meetup", "Berlin"],
  ["Rust and WebAssembly night", "Berlin"],
  ["Async Rust workshop", "Berlin"],
  ["Systems programming meetup", "Berlin"],
  ["Rust meetup", "Lisbon"],
  ["Go meetup", "Berlin"],
  ["Rust embedded talks", "Berlin"],
  ["Memory safety meetup", "Berlin"],
];

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the site, the search API and MCP rank a search alike`, async () => {
    const fake = startFakeOpenAI();
    const server = await startTestServer(kind, {
      embeddings: {
        provider: "openai",
        openaiApiKey: fake.apiKey,
        openaiBaseUrl: fake.baseUrl,
        dimensions: 32,
      },
    });
    const mcp = await connectClient(server.url, "2026-07-28");
    try {
      const key = await createApiKey(server, { rate_limit_per_minute: 1000 });
      await postBatch(server.url, key.key, {
        events: TITLES.map(([title, city], i) =>
          sampleEvent(i, {
            title,
            city,
            starts_at: new Date(Date.UTC(2030, 5, 1 + i, 18)).toISOString(),
          })
        ),
      });
      await admin(server, "POST", `/api/v1/admin/keys/${key.id}/trust`);
      await eventually("every event has its vector or AI search is off", async () => {
        const health = await (await server.fetch(`${server.url}/healthz`)).json();
        return !health.ai_search.available || health.ai_search.waiting_for_vectors === 0;
      });

      const q = "rust meetups in Berlin";
      const api = await search(server, { q, limit: "10" });
      assert.equal(api.status, 200);
      assert.deepEqual(api.body.interpreted, { city: "Berlin" });
      const fromApi = api.body.data.map((h: { event: { id: string } }) => h.event.id);
      assert.ok(fromApi.length >= 3, "several Berlin events match");

      const page = await server.fetch(`${server.url}/?q=${encodeURIComponent(q)}&limit=10`, {
        headers: { Accept: "text/html" },
      });
      const html = await page.text();
      const fromSite = [
        ...new Set([...html.matchAll(/href="\/events\/([0-9a-f-]{36})"/g)]
          .map((m) => m[1])),
      ];
      assert.match(html, /Showing events in Berlin · <a href="[^"]*interpret=off/);

      const tool = await mcp.callTool("search_events", { query: q, limit: 10 });
      const structured = tool.structuredContent;
      assert.deepEqual(structured.interpreted, { city: "Berlin" });
      const fromMcp = structured.results.map((r: { id: string }) => r.id);

      assert.deepEqual(fromSite, fromApi);
      assert.deepEqual(fromMcp, fromApi);

      // The site's link says interpret=off; the API takes it as it takes interpret=false.
      for (const interpret of ["off", "false"]) {
        const words = await search(server, { q, limit: "10", interpret });
        assert.equal(words.status, 200, interpret);
        assert.deepEqual(words.body.interpreted, {}, interpret);
      }
      assert.deepEqual((await search(server, { q, interpret: "on" })).body.interpreted, {
        city: "Berlin",
      });
      assert.equal((await search(server, { q, interpret: "maybe" })).status, 400);
    } finally {
      await mcp.close();
      await server.close();
      await fake.close();
    }
  });
}
