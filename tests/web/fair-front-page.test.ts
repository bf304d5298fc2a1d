/**
 * The fair front page: with one unreviewed contributor pushing 1,000 events starting today and
 * two others with a few each, no page of the home listing, the feeds or MCP search_events
 * without a query gives one unreviewed contributor more than a quarter, or unreviewed
 * contributors together more than half; soonest first holds within each page, and paging on
 * shows every event exactly once.
 */
import assert from "node:assert/strict";
import type { Sql } from "postgres";
import { testBackends } from "../../dev-support/databases.ts";
import { startTestServer, type TestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { insertApiKey } from "../../server/db/api-keys.ts";
import { upsertEvents, type Writer } from "../../server/db/events.ts";
import { EventBatch } from "../../shared/event-schema.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { assertValidResult, connectClient, type Json } from "../mcp/support.ts";

/** A contributor that made its own key on the dashboard, as a sign-up does. */
async function selfServiceWriter(sql: Sql, name: string): Promise<Writer> {
  const key = await insertApiKey(sql, {
    contributor: name,
    name,
    scopes: ["events:write"],
    rateLimitPerMinute: 10,
    digest: crypto.getRandomValues(new Uint8Array(32)),
    prefix: `evk_${crypto.randomUUID().slice(0, 8)}`,
    createdBy: `dashboard:${name}`,
    selfService: true,
  });
  return { contributorId: key.contributor_id, keyId: key.id };
}

/** Stores `count` events of `writer`, `stepMinutes` apart from `startMinutes` from now. */
async function seed(
  sql: Sql,
  writer: Writer,
  o: { prefix: string; count: number; startMinutes: number; stepMinutes: number },
) {
  const base = Date.now();
  for (let at = 0; at < o.count; at += 100) {
    const events = Array.from(
      { length: Math.min(100, o.count - at) },
      (_, i) =>
        sampleEvent(at + i, {
          external_id: `${o.prefix}-${at + i}`,
          starts_at: new Date(base + (o.startMinutes + (at + i) * o.stepMinutes) * 60_000)
            .toISOString(),
        }),
    );
    await upsertEvents(sql, writer, EventBatch.parse({ events }).events);
  }
}

/** The contributor of each event, by event id. */
async function ownerOf(sql: Sql): Promise<Map<string, string>> {
  const rows = await sql<{ id: string; contributor_id: string }[]>`
    SELECT id, contributor_id FROM events`;
  return new Map(rows.map((r) => [r.id, r.contributor_id]));
}

/** Checks one page of `limit` against the share rule and soonest-first order. */
function assertFair(
  page: { ids: string[]; starts: string[] },
  o: { limit: number; owners: Map<string, string>; unreviewed: Set<string>; what: string },
) {
  const perContributor = new Map<string, number>();
  for (const id of page.ids) {
    const owner = o.owners.get(id)!;
    if (o.unreviewed.has(owner)) perContributor.set(owner, (perContributor.get(owner) ?? 0) + 1);
  }
  const together = [...perContributor.values()].reduce((a, b) => a + b, 0);
  for (const [owner, n] of perContributor) {
    assert.ok(n <= Math.floor(o.limit / 4), `${o.what}: ${owner} holds ${n} of ${o.limit}`);
  }
  assert.ok(together <= Math.floor(o.limit / 2), `${o.what}: unreviewed hold ${together}`);
  const sorted = [...page.starts].sort((a, b) => Date.parse(a) - Date.parse(b));
  assert.deepEqual(page.starts, sorted, `${o.what}: soonest first`);
}

async function homePage(server: TestServer, href: string) {
  const res = await fetch(`${server.url}${href}`);
  const html = await res.text();
  assert.equal(res.status, 200);
  const ids = [
    ...new Set([...html.matchAll(/href="\/events\/([0-9a-f-]{36})"/g)].map((m) => m[1])),
  ];
  const starts = [...html.matchAll(/<time datetime="([^"]+)"/g)].map((m) => m[1]);
  const next = /<a href="(\/\?[^"]*after=[^"]+)"[^>]*>/.exec(html)?.[1]?.replaceAll("&amp;", "&");
  return { ids, starts, next };
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] one unreviewed contributor with 1,000 events today holds a quarter of a page at most`, async (t) => {
    const server = await startTestServer(kind);
    const sql = server.service.deps.db.sql;
    try {
      const flood = await selfServiceWriter(sql, "flood@example.org");
      await seed(sql, flood, { prefix: "flood", count: 1000, startMinutes: 5, stepMinutes: 1 });
      const honest = await insertWriterKey(sql, "honest meetups");
      await seed(sql, honest, { prefix: "honest", count: 4, startMinutes: 600, stepMinutes: 300 });
      const another = await insertWriterKey(sql, "a conference");
      await seed(sql, another, { prefix: "conf", count: 3, startMinutes: 2000, stepMinutes: 60 });
      const owners = await ownerOf(sql);
      const unreviewed = new Set([flood.contributorId]);

      await t.step("the home page: a quarter of each page, every event once", async () => {
        const first = await homePage(server, "/");
        // The 7 others and 5 of the flood: the flood's other 995 wait for later pages.
        assert.equal(first.ids.length, 12);
        assertFair(first, { limit: 20, owners, unreviewed, what: "home page 1" });
        // The honest events start hours later, yet all seven fit the first page's other 15.
        const honestShown = first.ids.filter((id) => owners.get(id) !== flood.contributorId);
        assert.equal(honestShown.length, 7);
        const seen = [...first.ids];
        let next = first.next;
        for (let page = 2; next && page <= 300; page++) {
          const later = await homePage(server, next);
          assertFair(later, { limit: 20, owners, unreviewed, what: `home page ${page}` });
          seen.push(...later.ids);
          next = later.next;
        }
        assert.equal(next, undefined, "the last page has no next link");
        assert.equal(seen.length, 1007, "every event shown");
        assert.equal(new Set(seen).size, 1007, "none twice");
      });

      await t.step("the feeds without a query", async () => {
        const ics = await (await fetch(`${server.url}/events.ics`)).text();
        const ids = [...ics.matchAll(/^UID:([0-9a-f-]{36})@/gm)].map((m) => m[1]);
        const floodShare = ids.filter((id) => owners.get(id) === flood.contributorId).length;
        assert.equal(ids.length, 32, "25 of the flood and the 7 others");
        assert.equal(floodShare, 25);
        const atom = await (await fetch(`${server.url}/events.atom`)).text();
        const entries = [...atom.matchAll(/\/events\/([0-9a-f-]{36})/g)].map((m) => m[1]);
        const floodInAtom = new Set(entries.filter((id) => owners.get(id) === flood.contributorId));
        assert.equal(floodInAtom.size, 25);
        // With words the feed is a search, in the API's order.
        const searched = await (await fetch(`${server.url}/events.ics?q=talk`)).text();
        assert.equal([...searched.matchAll(/^UID:/gm)].length, 100);
      });

      await t.step("MCP search_events without a query", async () => {
        const client = await connectClient(server.url, "2026-07-28");
        try {
          const tool = (await client.listTools()).find((x: Json) => x.name === "search_events");
          const seen: string[] = [];
          let cursor: string | undefined;
          for (let page = 0; page < 10; page++) {
            const result = assertValidResult(
              tool,
              await client.callTool("search_events", { limit: 40, ...(cursor ? { cursor } : {}) }),
            );
            const ids = result.results.map((e: Json) => e.id);
            const starts = result.results.map((e: Json) => e.starts_at);
            assertFair({ ids, starts }, {
              limit: 40,
              owners,
              unreviewed,
              what: `mcp page ${page}`,
            });
            seen.push(...ids);
            cursor = result.next_cursor ?? undefined;
          }
          // Page 1: the 7 others and 10 of the flood; then 10 of the flood a page.
          assert.equal(seen.length, 17 + 9 * 10);
          assert.equal(new Set(seen).size, seen.length, "none twice");
          assert.ok(cursor, "more to come");
        } finally {
          await client.close();
        }
      });

      await t.step(
        "once an operator vouches for it, its events are listed as anyone's",
        async () => {
          await sql`UPDATE api_keys SET trusted = true WHERE id = ${flood.keyId}`;
          const first = await homePage(server, "/");
          assert.ok(first.ids.every((id) => owners.get(id) === flood.contributorId));
        },
      );
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] many unreviewed sign-ups together hold half of a page at most`, async () => {
    const server = await startTestServer(kind);
    const sql = server.service.deps.db.sql;
    try {
      const unreviewed = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const w = await selfServiceWriter(sql, `signup-${i}@example.org`);
        unreviewed.add(w.contributorId);
        await seed(sql, w, { prefix: `s${i}`, count: 30, startMinutes: 5 + i, stepMinutes: 7 });
      }
      const honest = await insertWriterKey(sql, "honest");
      await seed(sql, honest, { prefix: "h", count: 60, startMinutes: 1000, stepMinutes: 30 });
      const owners = await ownerOf(sql);
      const seen: string[] = [];
      let next: string | undefined = "/";
      for (let page = 1; next && page <= 100; page++) {
        const shown = await homePage(server, next);
        assertFair(shown, { limit: 20, owners, unreviewed, what: `page ${page}` });
        if (page === 1) {
          assert.equal(shown.ids.filter((id) => unreviewed.has(owners.get(id)!)).length, 10);
        }
        seen.push(...shown.ids);
        next = shown.next;
      }
      assert.equal(new Set(seen).size, 240);
      assert.equal(seen.length, 240);
    } finally {
      await server.close();
    }
  });
}
