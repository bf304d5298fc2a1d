/**
 * Property-based tests of POST /api/v1/events: valid batches over the whole allowed range are
 * accepted; a batch with one near-miss event, random JSON and random bytes are refused in the
 * documented shape, never with a 5xx, and nothing of a refused batch is stored.
 * FUZZ_RUNS=20000 makes a long run; FUZZ_SEED replays a failure.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Sql } from "postgres";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestApp, type TestServer } from "../../dev-support/test-server.ts";
import { nearMissEvent, validEvent } from "./support/event-arbitraries.ts";
import { assertDocumentedError, jsonBody } from "./support/error-shape.ts";
import { fuzzRuns, fuzzSeed } from "./support/fuzz-runs.ts";

/** A fingerprint of every stored event: any write changes it. */
async function storedState(sql: Sql): Promise<string> {
  const [row] = await sql<{ state: string }[]>`
    SELECT count(*) || ':' || coalesce(md5(string_agg(e::text, ',' ORDER BY e.id)), '') AS state
    FROM events e`;
  return row.state;
}

async function push(
  server: TestServer,
  key: string,
  body: string,
  contentType = "application/json",
): Promise<{ status: number; body: unknown }> {
  const res = await server.fetch(`${server.url}/api/v1/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": contentType },
    body,
  });
  return { status: res.status, body: await jsonBody(res, `POST ${body.slice(0, 200)}`) };
}

// A small pool of ids, so that generated batches also update what earlier ones stored.
const pooledIds = fc.constantFrom(...Array.from({ length: 30 }, (_, i) => `fuzz-${i}`));
const params = (base: number) => ({ numRuns: fuzzRuns(base), seed: fuzzSeed() });

for (const kind of testBackends()) {
  Deno.test(`[${kind}] property: push refuses every near miss in the documented shape, storing nothing`, async (t) => {
    const server = await startTestApp(kind, { publicRateLimitPerMinute: 10_000_000 });
    const sql = server.service.deps.db.sql;
    try {
      const { key } = await createApiKey(server, { rate_limit_per_minute: 100_000 });

      await t.step("valid batches are accepted whole", async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(validEvent(pooledIds), { minLength: 1, maxLength: 5 }),
            async (events) => {
              const res = await push(server, key, JSON.stringify({ events }));
              assert.equal(res.status, 200, JSON.stringify({ events, body: res.body }));
              const data = (res.body as { data: Record<string, unknown> }).data;
              assert.equal(Number(data.inserted) + Number(data.updated), events.length);
              assert.deepEqual(data.errors, []);
            },
          ),
          params(150),
        );
      });

      await t.step("one near-miss event refuses the batch and names that event", async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(validEvent(pooledIds), { maxLength: 4 }),
            nearMissEvent(pooledIds),
            fc.nat(),
            async (valid, broken, at) => {
              const index = at % (valid.length + 1);
              const events = [...valid.slice(0, index), broken, ...valid.slice(index)];
              const before = await storedState(sql);
              const res = await push(server, key, JSON.stringify({ events }));
              const context = JSON.stringify({ broken, index }).slice(0, 2000);
              assert.equal(res.status, 400, `${context} -> ${JSON.stringify(res.body)}`);
              assertDocumentedError(res.status, res.body, context);
              const details = (res.body as { details: { path: unknown[] }[] }).details;
              assert.ok(
                details.some((d) => d.path[0] === "events" && d.path[1] === index),
                `${context}: no detail names events[${index}]: ${JSON.stringify(details)}`,
              );
              assert.equal(await storedState(sql), before, `${context}: something was stored`);
            },
          ),
          params(300),
        );
      });

      await t.step("random JSON bodies never cause a 5xx or a partial write", async () => {
        const envelope = fc.oneof(
          fc.jsonValue(),
          fc.record({ events: fc.jsonValue() }),
          fc.record({ events: fc.array(fc.jsonValue(), { maxLength: 3 }) }),
          fc.array(validEvent(pooledIds), { minLength: 101, maxLength: 102 })
            .map((events) => ({ events })),
          fc.tuple(validEvent(pooledIds), fc.string(), fc.jsonValue())
            .map(([e, k, v]) => ({ events: [e], [k]: v })),
        );
        await fc.assert(
          fc.asyncProperty(envelope, async (body) => {
            const before = await storedState(sql);
            const res = await push(server, key, JSON.stringify(body));
            if (res.status === 200) return;
            const context = JSON.stringify(body).slice(0, 2000);
            assertDocumentedError(res.status, res.body, context);
            assert.equal(await storedState(sql), before, `${context}: something was stored`);
          }),
          params(300),
        );
      });

      await t.step("random bytes and content types are refused cleanly", async () => {
        const bodies = fc.oneof(
          fc.string({ unit: "binary", maxLength: 200 }),
          fc.uint8Array({ maxLength: 200 }).map((b) => new TextDecoder("latin1").decode(b)),
          fc.jsonValue().map((v) => JSON.stringify(v).slice(0, -1)),
        );
        const types = fc.constantFrom(
          "application/json",
          "application/json; charset=utf-8",
          "text/plain",
          "application/x-www-form-urlencoded",
          "application/vnd.api+json",
          "",
        );
        await fc.assert(
          fc.asyncProperty(bodies, types, async (body, type) => {
            const before = await storedState(sql);
            const res = await push(server, key, body, type);
            if (res.status === 200) return;
            assertDocumentedError(res.status, res.body, JSON.stringify({ body, type }));
            assert.equal(await storedState(sql), before);
          }),
          params(200),
        );
      });
    } finally {
      await server.close();
    }
  });
}
