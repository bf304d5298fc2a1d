/**
 * search_events and calls for papers, with both real MCP clients over HTTP: `cfp` open or any,
 * the deadline bounds, soonest deadline first (the default with cfp open), pages by cursor, and
 * each result's CFP fields and status (docs/mcp.md).
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { daysFromNow } from "./seed-events.ts";
import {
  assertValidResult,
  CLIENT_KINDS,
  connectClient,
  errorMessage,
  type Json,
} from "./support.ts";

const CFP = "https://cfp.example.org/";

function cfpEvents() {
  const event = (n: number, title: string, extra: Record<string, unknown>) =>
    sampleEvent(n, {
      title,
      starts_at: daysFromNow(60),
      city: title,
      topics: ["kotlin"],
      ...extra,
    });
  return [
    event(1, "Kotlin deadline in 20 days", { cfp_url: `${CFP}1`, cfp_closes_at: daysFromNow(20) }),
    event(2, "Kotlin deadline in 5 days", { cfp_url: `${CFP}2`, cfp_closes_at: daysFromNow(5) }),
    event(3, "Kotlin CFP without deadline", { cfp_url: `${CFP}3` }),
    event(4, "Kotlin CFP closed", { cfp_url: `${CFP}4`, cfp_closes_at: daysFromNow(-1) }),
    event(5, "Kotlin CFP opens later", {
      cfp_url: `${CFP}5`,
      cfp_opens_at: daysFromNow(10),
      cfp_closes_at: daysFromNow(30),
    }),
    event(6, "Kotlin without CFP", {}),
  ];
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] both MCP clients find open calls for papers, soonest deadline first`, async (t) => {
    const server = await startTestServer(kind);
    try {
      const key = await createApiKey(server, { contributor: "cfp@example.org" });
      const pushed = await postBatch(server.url, key.key, { events: cfpEvents() });
      assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
      for (const clientKind of CLIENT_KINDS) {
        await t.step(clientKind, async () => {
          const client = await connectClient(server.url, clientKind);
          try {
            const tool = (await client.listTools()).find((x: Json) => x.name === "search_events");
            assert.match(tool.description, /where can I still submit a talk about X/);
            for (const arg of ["cfp", "cfp_closes_before", "cfp_closes_after", "sort"]) {
              assert.ok(arg in tool.inputSchema.properties, `${arg} is an argument`);
            }
            const call = async (args: unknown) =>
              assertValidResult(tool, await client.callTool("search_events", args));
            const titles = (r: Json) => r.results.map((e: Json) => e.title);

            const open = await call({ topic: "kotlin", cfp: "open" });
            assert.deepEqual(titles(open), [
              "Kotlin deadline in 5 days",
              "Kotlin deadline in 20 days",
              "Kotlin CFP without deadline",
            ]);
            assert.equal(open.total, 3);
            const first = open.results[0];
            assert.equal(first.cfp_url, `${CFP}2`);
            assert.equal(first.cfp_status, "open");
            assert.equal(first.cfp_closes_at, new Date(daysFromNow(5)).toISOString());

            // Paged one by one, in the same order.
            const paged: string[] = [];
            let cursor: string | undefined;
            for (let i = 0; i < 5; i++) {
              const page = await call({ topic: "kotlin", cfp: "open", limit: 1, cursor });
              paged.push(...titles(page));
              if (page.next_cursor === null) break;
              cursor = page.next_cursor;
            }
            assert.deepEqual(paged, titles(open));

            const any = await call({ topic: "kotlin", cfp: "any", sort: "cfp_closes_at" });
            assert.deepEqual(titles(any), [
              "Kotlin CFP closed",
              "Kotlin deadline in 5 days",
              "Kotlin deadline in 20 days",
              "Kotlin CFP opens later",
              "Kotlin CFP without deadline",
            ]);
            assert.deepEqual(
              any.results.map((e: Json) => e.cfp_status),
              ["closed", "open", "open", "not_yet_open", "open"],
            );

            const bounded = await call({
              topic: "kotlin",
              cfp_closes_after: daysFromNow(4),
              cfp_closes_before: daysFromNow(21),
              sort: "cfp_closes_at",
            });
            assert.deepEqual(
              titles(bounded),
              [
                "Kotlin deadline in 5 days",
                "Kotlin deadline in 20 days",
                "Kotlin CFP opens later",
              ].slice(0, 2),
            );

            const words = await call({ query: "kotlin", cfp: "open", sort: "cfp_closes_at" });
            assert.deepEqual(titles(words), titles(open));
            assert.equal(words.mode, "upcoming");

            const wrong = errorMessage(await client.callTool("search_events", { cfp: "soon" }));
            assert.match(wrong, /cfp must be "open" or "any"/);
          } finally {
            await client.close();
          }
        });
      }
    } finally {
      await server.close();
    }
  });
}
