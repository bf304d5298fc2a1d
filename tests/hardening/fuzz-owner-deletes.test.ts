/**
 * Property-based tests of the delete endpoints as used by someone who owns what they name: Bob
 * and Alice each own events, some under the same external_id on another platform. Near-miss
 * bodies, ids and query strings never cause a 5xx; every error has the documented shape; a
 * refused request deletes nothing; an accepted one deletes only events its caller may delete and
 * the request names, and never another contributor's. GET /api/v1/me/events only ever lists the
 * caller's events. (fuzz-deletes.test.ts covers callers who own nothing.)
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Sql } from "postgres";
import { testBackends } from "../../dev-support/databases.ts";
import {
  createApiKey,
  postBatch,
  startTestApp,
  type TestServer,
} from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { pathSegment, queryString } from "./support/query-arbitraries.ts";
import { assertDocumentedError, jsonBody } from "./support/error-shape.ts";
import { fuzzRuns, fuzzSeed } from "./support/fuzz-runs.ts";

const SIZE = 8;
/** Bob's events are evt-i on one platform of the pair, Alice's evt-i on the other. */
const PAIR = ["meetup", "luma"] as const;
const bobsBatch = () =>
  Array.from({ length: SIZE }, (_, i) => sampleEvent(i, { platform: PAIR[i % 2] }));
const alicesBatch = () =>
  Array.from({ length: SIZE }, (_, i) => sampleEvent(i, { platform: PAIR[(i + 1) % 2] }));

interface Stored {
  id: string;
  owner: string;
  contributorId: string;
  pair: string;
}

/** Every stored event with its owner's name. */
async function storedEvents(sql: Sql): Promise<Stored[]> {
  return await sql<Stored[]>`
    SELECT e.id::text AS id, c.name AS owner, c.id::text AS "contributorId",
           e.platform || '/' || e.external_id AS pair
    FROM events e JOIN contributors c ON c.id = e.contributor_id
    ORDER BY e.id`;
}

const externalId: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: SIZE + 1 }).map((i) => `evt-${i}`) },
  {
    weight: 3,
    arbitrary: fc.constantFrom("evt-0 ", " evt-1", "EVT-0", "evt-00", "evt-", "evt-1\n"),
  },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "evt-0\u0000", "x".repeat(501)) },
  { weight: 1, arbitrary: fc.constantFrom(null, 0, true, ["evt-0"], { id: "evt-0" }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const platform: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...PAIR, "other", "eventbrite") },
  { weight: 1, arbitrary: fc.constantFrom("Meetup", "LUMA", " luma", "", null, 1, ["meetup"]) },
);
/** Mostly whole items (a batch with one bad item is refused whole), some partial or junk. */
const item: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ external_id: externalId, platform }) },
  { weight: 2, arbitrary: fc.record({ external_id: externalId, platform }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.record({ external_id: externalId, platform, id: fc.uuid() }) },
  { weight: 1, arbitrary: fc.jsonValue() },
);
/** Bodies of POST /api/v1/events/delete: mostly near the real shape, some anything at all. */
const deleteBody: fc.Arbitrary<{ text: string; items: unknown[] }> = fc.oneof(
  { weight: 8, arbitrary: fc.array(item, { minLength: 1, maxLength: 5 }) },
  { weight: 1, arbitrary: fc.constantFrom([], Array(101).fill({ external_id: "evt-0" })) },
).chain((items) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant({ events: items }) },
    { weight: 1, arbitrary: fc.constant({ events: items, dry_run: true }) },
    { weight: 1, arbitrary: fc.constant(items) },
  ).map((body) => ({ text: JSON.stringify(body), items }))
);
/** Where a query string goes: none most of the time, sometimes a generated one. */
const maybeQuery = fc.option(queryString, { freq: 3 }).map((q) => (q ? `?${q}` : ""));
/** Query strings of GET /api/v1/me/events: its own parameters with small pages, or anything. */
const ownEventsQuery: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      limit: fc.constantFrom("1", "2", "3", "3", "0", "x"),
      platform: fc.constantFrom(...PAIR, "other", "Meetup"),
      external_id_prefix: fc.constantFrom("evt-", "evt-1", "", "EVT", "evt-0\u0000"),
    }, { requiredKeys: ["limit"] }).map((q) => new URLSearchParams(q).toString()),
  },
  { weight: 1, arbitrary: queryString },
);

/** The pair an accepted item names, as the server reads it (trimmed, platform default other). */
function namedPair(item: unknown): string | null {
  if (typeof item !== "object" || item === null) return null;
  const { external_id, platform } = item as Record<string, unknown>;
  if (typeof external_id !== "string") return null;
  return `${typeof platform === "string" ? platform : "other"}/${external_id.trim()}`;
}

/** What changed between two listings of the stored events. */
function removed(before: Stored[], after: Stored[]): Stored[] {
  const left = new Set(after.map((e) => e.id));
  assert.ok(after.every((e) => before.some((b) => b.id === e.id)), "an event appeared");
  return before.filter((e) => !left.has(e.id));
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] property: owners' near-miss deletes remove only what they name`, async (t) => {
    const server = await startTestApp(kind, { publicRateLimitPerMinute: 10_000_000 });
    const params = (base: number) => ({ numRuns: fuzzRuns(base), seed: fuzzSeed() });
    const sql = server.service.deps.db.sql;
    try {
      const keyOf = (contributor: string) =>
        createApiKey(server, { contributor, rate_limit_per_minute: 100_000 });
      const bob = await keyOf("bob");
      const alice = await keyOf("alice");
      const restock = () => restore(server, { bob: bob.key, alice: alice.key });
      await restock();
      const call = (method: string, path: string, key: string, body?: string) =>
        server.fetch(`${server.url}${path}`, {
          method,
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body,
        });

      await t.step("POST /api/v1/events/delete by an owner, near-miss bodies", async () => {
        await fc.assert(
          fc.asyncProperty(deleteBody, async ({ text, items }) => {
            const before = await storedEvents(sql);
            const res = await call("POST", "/api/v1/events/delete", bob.key, text);
            const answer = await jsonBody(res, text);
            const gone = removed(before, await storedEvents(sql));
            if (res.status !== 200) {
              assertDocumentedError(res.status, answer, text);
              assert.deepEqual(gone, [], `${text}: a refused request deleted`);
              return;
            }
            const data = (answer as { data: { deleted: number; errors: unknown[] } }).data;
            assert.equal(data.deleted, gone.length, text);
            assert.equal(data.deleted + data.errors.length, items.length, text);
            const named = new Set(items.map(namedPair));
            for (const event of gone) {
              assert.equal(event.owner, "bob", `${text}: deleted ${event.owner}'s ${event.pair}`);
              assert.ok(named.has(event.pair), `${text}: deleted ${event.pair}, not named`);
            }
            if (gone.length > 0) await restock();
          }),
          params(300),
        );
      });

      await t.step(
        "DELETE /api/v1/events/{id} by an owner and an operator, near-miss ids",
        async () => {
          const ref = fc.tuple(
            fc.nat(),
            fc.constantFrom("exact", "upper", "suffix", "prefix", "space", "encoded", "random"),
            pathSegment,
          );
          await fc.assert(
            fc.asyncProperty(
              ref,
              fc.boolean(),
              maybeQuery,
              async ([n, how, junk], asOperator, q) => {
                const before = await storedEvents(sql);
                const target = before[n % before.length];
                const id = nearMiss(target.id, how, junk);
                const key = asOperator ? server.adminKey : bob.key;
                const path = `/api/v1/events/${id}${q}`;
                const res = await call("DELETE", path, key);
                const gone = removed(before, await storedEvents(sql));
                const context = `${asOperator ? "operator" : "bob"} DELETE ${path}`;
                if (res.status !== 204) {
                  assertDocumentedError(res.status, await jsonBody(res, context), context);
                  assert.deepEqual(gone, [], `${context}: a refused request deleted`);
                  return;
                }
                assert.equal(gone.length, 1, context);
                assert.equal(gone[0].id, decodeURIComponent(id).toLowerCase(), context);
                if (!asOperator) assert.equal(gone[0].owner, "bob", context);
                await restock();
              },
            ),
            params(200),
          );
        },
      );

      await t.step("DELETE /api/v1/admin/contributors/{id}/events, near-miss ids", async () => {
        const ref = fc.tuple(
          fc.constantFrom("bob", "alice"),
          fc.constantFrom("exact", "upper", "suffix", "prefix", "space", "encoded", "random"),
          pathSegment,
        );
        await fc.assert(
          fc.asyncProperty(ref, fc.boolean(), maybeQuery, async ([who, how, junk], asBob, q) => {
            const before = await storedEvents(sql);
            const contributor = before.find((e) => e.owner === who)!.contributorId;
            const path = `/api/v1/admin/contributors/${
              nearMiss(contributor, how, junk)
            }/events${q}`;
            const res = await call("DELETE", path, asBob ? bob.key : server.adminKey);
            const answer = await jsonBody(res, path);
            const gone = removed(before, await storedEvents(sql));
            if (asBob || res.status !== 200) {
              // 403, or 404 for a segment such as ".." that leaves the route.
              if (asBob) assert.notEqual(res.status, 200, `bob ${path}`);
              assertDocumentedError(res.status, answer, path);
              assert.deepEqual(gone, [], `${path}: a refused request deleted`);
              return;
            }
            const data = (answer as { data: { deleted: number } }).data;
            assert.equal(data.deleted, gone.length, path);
            if (gone.length === 0) return;
            assert.equal(how === "exact" || how === "upper" || how === "encoded", true, path);
            assert.deepEqual(
              gone.map((e) => e.id).sort(),
              before.filter((e) => e.owner === who).map((e) => e.id).sort(),
              `${path}: exactly ${who}'s events go`,
            );
            await restock();
          }),
          params(150),
        );
      });

      await t.step("GET /api/v1/me/events lists only the caller's events", async () => {
        const bobs = new Set(
          (await storedEvents(sql)).filter((e) => e.owner === "bob").map((e) => e.pair),
        );
        await fc.assert(
          fc.asyncProperty(ownEventsQuery, async (query) => {
            const seen = new Set<string>();
            let path = `/api/v1/me/events?${query}`;
            for (let page = 0; page < 4; page++) {
              const res = await call("GET", path, bob.key);
              const answer = await jsonBody(res, path);
              if (res.status !== 200) return assertDocumentedError(res.status, answer, path);
              const { data, next_cursor } = answer as {
                data: { platform: string; external_id: string }[];
                next_cursor: string | null;
              };
              const pairs = data.map((e) => `${e.platform}/${e.external_id}`);
              for (const pair of pairs) {
                assert.ok(bobs.has(pair), `${path}: listed ${pair}, not Bob's`);
                assert.ok(!seen.has(pair), `${path}: ${pair} on two pages`);
                seen.add(pair);
              }
              if (next_cursor === null) return;
              const next = new URLSearchParams(query);
              next.set("cursor", next_cursor);
              path = `/api/v1/me/events?${next}`;
            }
          }),
          params(200),
        );
      });
    } finally {
      await server.close();
    }
  });
}

/** Pushes both contributors' events again (the deleted ones come back with new ids). */
async function restore(server: TestServer, keys: { bob: string; alice: string }): Promise<void> {
  for (const [key, events] of [[keys.bob, bobsBatch()], [keys.alice, alicesBatch()]] as const) {
    const res = await postBatch(server.url, key, { events });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.errors, []);
  }
}

/** An id as sent: itself, or something near it, or `junk`. */
function nearMiss(id: string, how: string, junk: string): string {
  switch (how) {
    case "exact":
      return id;
    case "upper":
      return id.toUpperCase();
    case "suffix":
      return `${id}0`;
    case "prefix":
      return `0${id}`;
    case "space":
      return encodeURIComponent(` ${id}`);
    case "encoded":
      return id.replaceAll("-", "%2D");
    default:
      return junk;
  }
}
