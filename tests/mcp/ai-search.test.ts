/**
 * AI search over MCP keeps the trust promise: semantic results and similar events only ever
 * include events in AI search, even when an untrusted event says exactly what was asked; and
 * where AI search is unavailable, search falls back to text and says so.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { startFakeOpenAI } from "../../dev-support/fake-openai.ts";
import { sampleEvent } from "../support/events.ts";
import { admin, eventually } from "../search/support.ts";
import { daysFromNow } from "./seed-events.ts";
import {
  assertValidResult,
  CLIENT_KINDS,
  connectClient,
  errorMessage,
  type Json,
} from "./support.ts";

const KNITTING = "Quantum knitting symposium with entangled scarves";

Deno.test("[pglite] semantic search and similar events over MCP never return untrusted events", async (t) => {
  const fake = startFakeOpenAI();
  const server = await startTestServer("pglite", {
    embeddings: fake.embeddingSettings(32),
  });
  try {
    const trusted = await createApiKey(server, { contributor: "trusted" });
    const untrusted = await createApiKey(server, { contributor: "spammer" });
    const event = (n: number, title: string) =>
      sampleEvent(n, { title, starts_at: daysFromNow(n), topics: ["knitting"] });
    await postBatch(server.url, trusted.key, {
      events: [event(1, KNITTING), event(2, "Quantum knitting workshop"), event(3, "Scarf club")],
    });
    // The untrusted events repeat the query word for word: only trust keeps them out.
    await postBatch(server.url, untrusted.key, {
      events: [event(11, KNITTING), event(12, `${KNITTING} (copy)`)],
    });
    await admin(server, "POST", `/api/v1/admin/keys/${trusted.id}/trust`);
    await eventually("the trusted events have vectors", async () => {
      const health = await (await fetch(`${server.url}/healthz`)).json();
      return health.ai_search.waiting_for_vectors === 0;
    });

    for (const kind of CLIENT_KINDS) {
      await t.step(kind, async () => {
        const client = await connectClient(server.url, kind);
        try {
          const tools = await client.listTools();
          const tool = (name: string) => tools.find((x: Json) => x.name === name);
          const search = assertValidResult(
            tool("search_events"),
            await client.callTool("search_events", { query: KNITTING, mode: "semantic" }),
          );
          assert.equal(search.mode, "semantic");
          assert.deepEqual(search.results.map((e: Json) => e.title), [
            KNITTING,
            "Quantum knitting workshop",
            "Scarf club",
          ]);
          assert.ok(search.results.every((e: Json) => e.in_ai_search));

          // Hybrid may show untrusted events, but only as text matches, never ranked by meaning.
          const hybrid = assertValidResult(
            tool("search_events"),
            await client.callTool("search_events", { query: KNITTING }),
          );
          assert.equal(hybrid.mode, "hybrid");

          const source = search.results[0];
          const similar = assertValidResult(
            tool("find_similar_events"),
            await client.callTool("find_similar_events", { id: source.id, limit: 50 }),
          );
          assert.deepEqual(similar.results.map((e: Json) => e.title).sort(), [
            "Quantum knitting workshop",
            "Scarf club",
          ]);

          // An untrusted event cannot be the starting point either.
          const spam = hybrid.results.find((e: Json) => !e.in_ai_search);
          assert.ok(spam, "the untrusted copy is found by its words");
          assert.match(
            errorMessage(await client.callTool("find_similar_events", { id: spam.id })),
            /not in AI search .*use search_events/,
          );
        } finally {
          await client.close();
        }
      });
    }
  } finally {
    await server.close();
    await fake.close();
  }
});

if (testBackends().includes("postgres")) {
  Deno.test("[postgres] without pgvector, semantic search over MCP falls back to text and says why", async () => {
    const server = await startTestServer("postgres");
    try {
      const key = await createApiKey(server);
      await postBatch(server.url, key.key, {
        events: [sampleEvent(1, { title: KNITTING, starts_at: daysFromNow(2) })],
      });
      await admin(server, "POST", `/api/v1/admin/keys/${key.id}/trust`);
      const client = await connectClient(server.url, "2026-07-28");
      try {
        const tools = await client.listTools();
        const result = assertValidResult(
          tools[0],
          await client.callTool("search_events", { query: "knitting", mode: "semantic" }),
        );
        assert.equal(result.mode, "text");
        assert.deepEqual(result.results.map((e: Json) => e.title), [KNITTING]);
        assert.match(result.notices.join(" "), /AI search is unavailable: .*pgvector.*text search/);
        const hybrid = assertValidResult(
          tools[0],
          await client.callTool("search_events", { query: "knitting", mode: "hybrid" }),
        );
        assert.equal(hybrid.mode, "text");
        assert.match(hybrid.notices.join(" "), /pgvector.*text search alone/);
      } finally {
        await client.close();
      }
    } finally {
      await server.close();
    }
  });
}
