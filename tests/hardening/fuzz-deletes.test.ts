/**
 * Property-based tests of the endpoints that delete: near-miss and random bodies for
 * POST /api/v1/events/delete, random ids for DELETE /api/v1/events/{id} and the operator's
 * DELETE /api/v1/admin/contributors/{id}/events. Never a 5xx; every error in the documented
 * shape; a refused request deletes nothing; another contributor's events are never deleted.
 * (GET /api/v1/me/events is fuzzed with the other reads; fuzz-owner-deletes.test.ts has callers
 * who own what they name.)
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Sql } from "postgres";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { pathSegment } from "./support/query-arbitraries.ts";
import { assertDocumentedError, jsonBody } from "./support/error-shape.ts";
import { fuzzRuns, fuzzSeed } from "./support/fuzz-runs.ts";

const PLATFORMS = ["luma", "meetup", "eventbrite", "ics_feed", "other"];

/** A string that is nearly an external_id: empty, too long, control characters, odd types. */
const nearlyAnId: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom("evt-0", "evt-1", "", " ", "evt-0\u0000", "x".repeat(256), "x".repeat(255)),
  fc.string({ maxLength: 40 }),
  fc.constantFrom(null, 0, 1.5, true, [], {}, ["evt-0"]),
);
const nearlyAPlatform: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...PLATFORMS),
  fc.constantFrom("Meetup", "", "luma ", "unknown", null, 3, ["luma"]),
);
const item: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ external_id: nearlyAnId, platform: nearlyAPlatform }, { requiredKeys: [] }),
  fc.record({ external_id: nearlyAnId, platform: nearlyAPlatform, extra: fc.jsonValue() }),
  fc.jsonValue(),
);
/** Bodies of POST /api/v1/events/delete: mostly near the real shape, some anything at all. */
const deleteBody: fc.Arbitrary<string> = fc.oneof(
  fc.record({ events: fc.array(item, { maxLength: 4 }) }).map((b) => JSON.stringify(b)),
  fc.record({ events: fc.constantFrom([], null, "evt-0", Array(101).fill({})) }).map((b) =>
    JSON.stringify(b)
  ),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 60 }),
);

async function eventCount(sql: Sql, contributor: string): Promise<number> {
  const [{ n }] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM events e JOIN contributors c ON c.id = e.contributor_id
    WHERE c.name = ${contributor}`;
  return n;
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] property: the delete endpoints never cause a 5xx or a wrong deletion`, async (t) => {
    const server = await startTestApp(kind, { publicRateLimitPerMinute: 10_000_000 });
    const params = (base: number) => ({ numRuns: fuzzRuns(base), seed: fuzzSeed() });
    const sql = server.service.deps.db.sql;
    try {
      const alice = await createApiKey(server, {
        contributor: "alice",
        rate_limit_per_minute: 100_000,
      });
      const bob = await createApiKey(server, {
        contributor: "bob",
        rate_limit_per_minute: 100_000,
      });
      const events = Array.from({ length: 10 }, (_, i) => sampleEvent(i));
      assert.equal((await postBatch(server.url, bob.key, { events })).status, 200);
      const bobs = await eventCount(sql, "bob");
      const [{ id: bobsEvent }] = await sql<{ id: string }[]>`SELECT id FROM events LIMIT 1`;
      const [{ id: bobId }] = await sql<{ id: string }[]>`
        SELECT id FROM contributors WHERE name = 'bob'`;
      const call = (method: string, path: string, key: string, body?: string) =>
        server.fetch(`${server.url}${path}`, {
          method,
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body,
        });

      await t.step("POST /api/v1/events/delete with near-miss and random bodies", async () => {
        await fc.assert(
          fc.asyncProperty(deleteBody, async (body) => {
            // Alice owns nothing: whatever she sends, Bob's events stay.
            const res = await call("POST", "/api/v1/events/delete", alice.key, body);
            const answer = await jsonBody(res, body);
            if (res.status === 200) {
              const data = (answer as { data: { deleted: number; errors: unknown[] } }).data;
              assert.equal(data.deleted, 0, body);
              assert.ok(Array.isArray(data.errors), body);
            } else {
              assertDocumentedError(res.status, answer, body);
            }
            assert.equal(await eventCount(sql, "bob"), bobs, `${body}: Bob's events stay`);
          }),
          params(300),
        );
      });

      await t.step("DELETE /api/v1/events/{id} with random ids", async () => {
        const id = fc.oneof(pathSegment, fc.constant(bobsEvent), fc.uuid());
        await fc.assert(
          fc.asyncProperty(id, async (ref) => {
            const res = await call("DELETE", `/api/v1/events/${ref}`, alice.key);
            if (res.status === 204) assert.fail(`${ref}: deleted by someone who owns nothing`);
            assertDocumentedError(res.status, await jsonBody(res, ref), ref);
            assert.equal(await eventCount(sql, "bob"), bobs, `${ref}: Bob's events stay`);
          }),
          params(200),
        );
      });

      await t.step("DELETE /api/v1/admin/contributors/{id}/events with random ids", async () => {
        const id = fc.oneof(pathSegment, fc.uuid());
        await fc.assert(
          fc.asyncProperty(id, async (ref) => {
            // A contributor's key may not: 403 for every id, Bob's included.
            const refused = await call(
              "DELETE",
              `/api/v1/admin/contributors/${ref}/events`,
              alice.key,
            );
            assertDocumentedError(refused.status, await jsonBody(refused, ref), ref);
            const res = await call(
              "DELETE",
              `/api/v1/admin/contributors/${ref}/events`,
              server.adminKey,
            );
            if (res.status === 200) {
              // Only an existing contributor's id deletes, and random ids name none here.
              const data = (await jsonBody(res, ref) as { data: { deleted: number } }).data;
              assert.equal(data.deleted, 0, ref);
            } else {
              assertDocumentedError(res.status, await jsonBody(res, ref), ref);
            }
            assert.equal(await eventCount(sql, "bob"), bobs, `${ref}: Bob's events stay`);
          }),
          params(200),
        );
        const refused = await call(
          "DELETE",
          `/api/v1/admin/contributors/${bobId}/events`,
          alice.key,
        );
        assert.equal(refused.status, 403);
        await refused.body?.cancel();
        assert.equal(await eventCount(sql, "bob"), bobs);
      });
    } finally {
      await server.close();
    }
  });
}
