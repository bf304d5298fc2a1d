/**
 * A page of results stays far below an assistant's tool-result budget whatever contributors
 * write: every field at its longest, in a script of three bytes a character, and the page still
 * fits; what does not fit comes on the next page, with nothing lost or repeated.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { PAGE_BUDGET_BYTES } from "../../server/mcp/page-budget.ts";
import { daysFromNow } from "./seed-events.ts";
import { assertValidResult, connectClient, type Json } from "./support.ts";

const wide = (n: number) => "語".repeat(n);

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a page of the longest events stays within the budget and pages on`, async () => {
    const server = await startTestServer(kind);
    try {
      const key = await createApiKey(server);
      const events = Array.from({ length: 50 }, (_, i) =>
        sampleEvent(i, {
          title: `${i} ${wide(495)}`,
          description: `${wide(9_990)}.`,
          starts_at: daysFromNow(1 + i),
          venue_name: wide(500),
          city: wide(500),
          country: wide(500),
          source_url: `https://events.example.org/${"a".repeat(2_000)}/${i}`,
          topics: Array.from({ length: 20 }, (_, t) => `${String(t).padStart(2, "0")}${wide(98)}`),
          tags: Array.from({ length: 50 }, (_, t) => `${String(t).padStart(2, "0")}${wide(98)}`),
        }));
      const pushed = await postBatch(server.url, key.key, { events });
      assert.equal(pushed.status, 200, JSON.stringify(pushed.body).slice(0, 300));

      const client = await connectClient(server.url, "2026-07-28");
      try {
        const tool = (await client.listTools())[0];
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 50; page++) {
          const result = assertValidResult(
            tool,
            await client.callTool("search_events", { limit: 50, ...(cursor ? { cursor } : {}) }),
          );
          const bytes = new TextEncoder().encode(JSON.stringify(result.results)).length;
          assert.ok(bytes <= PAGE_BUDGET_BYTES, `${bytes} bytes`);
          assert.ok(result.results.length >= 1);
          if (page === 0) {
            assert.ok(result.results.length < 50, "the longest events do not all fit one page");
            const entry: Json = result.results[0];
            assert.ok(entry.title.length <= 200 && entry.title.endsWith("…"));
            assert.ok(entry.description.length <= 280);
            assert.equal(entry.source_url, null, "too long to list; get_event has it");
            assert.equal(entry.topics.length, 5);
          }
          seen.push(...result.results.map((e: Json) => e.title.split(" ")[0]));
          cursor = result.next_cursor ?? undefined;
          if (!cursor) break;
        }
        assert.deepEqual(seen, events.map((_, i) => String(i)));
      } finally {
        await client.close();
      }
    } finally {
      await server.close();
    }
  });
}
