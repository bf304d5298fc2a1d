/**
 * Property-based tests of every public read and the operator reads: random query strings and path
 * segments never cause a 5xx; the API answers JSON, errors in the documented shape; the site's
 * pages and feeds answer a page or a 4xx page.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { testFetch } from "../../dev-support/in-process-fetch.ts";
import { pathSegment, queryString } from "./support/query-arbitraries.ts";
import { assertDocumentedError, jsonBody } from "./support/error-shape.ts";
import { fuzzRuns, fuzzSeed } from "./support/fuzz-runs.ts";

// Streams a copy of the whole database: tested in backup-restore.test.ts, not thousands of times.
const NOT_FUZZED = ["/api/v1/admin/backup", "/api/v1/openapi.json"];

/** Every GET the OpenAPI document lists: paths without parameters, and paths with one. */
async function documentedReads(url: string): Promise<{ lists: string[]; items: string[] }> {
  const doc = await (await testFetch(`${url}/api/v1/openapi.json`)).json();
  const gets = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .filter(([path, item]) => item.get && !NOT_FUZZED.includes(path))
    .map(([path]) => path);
  return {
    lists: gets.filter((p) => !p.includes("{")),
    items: gets.filter((p) => /^[^{]*\{[^}]+\}$/.test(p)).map((p) => p.replace(/\{[^}]+\}$/, "")),
  };
}
const SITE_PATHS = ["/", "/events.ics", "/events.atom", "/sign-in", "/sign-up", "/dashboard"];

for (const kind of testBackends()) {
  Deno.test(`[${kind}] property: random query strings and ids never cause a 5xx`, async (t) => {
    const server = await startTestApp(kind, { publicRateLimitPerMinute: 10_000_000 });
    const params = (base: number) => ({ numRuns: fuzzRuns(base), seed: fuzzSeed() });
    try {
      const key = await createApiKey(server, { rate_limit_per_minute: 100_000 });
      // One key that may read everything: operator lists and a contributor's own.
      const reader = await createApiKey(server, {
        contributor: "reader",
        scopes: ["events:write", "admin"],
        rate_limit_per_minute: 100_000,
      });
      const operator = { Authorization: `Bearer ${reader.key}` };
      const { lists, items } = await documentedReads(server.url);
      assert.ok(lists.includes("/api/v1/events") && items.includes("/api/v1/events/"));
      const events = Array.from({ length: 30 }, (_, i) =>
        sampleEvent(i, {
          title: `Rust and <b>Go</b> night ${i}`,
          city: i % 2 ? "Berlin" : "Zürich",
          topics: ["rust"],
          latitude: 52.5,
          longitude: 13.4,
        }));
      assert.equal((await postBatch(server.url, key.key, { events })).status, 200);
      const listed = await (await server.fetch(`${server.url}/api/v1/events?limit=2`)).json();
      const ids: string[] = listed.data.map((e: { id: string }) => e.id);

      await t.step("every documented API read without a path parameter", async () => {
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...lists), queryString, async (path, query) => {
            const res = await server.fetch(`${server.url}${path}?${query}`, { headers: operator });
            const body = await jsonBody(res, `${path}?${query}`);
            if (res.status === 200) {
              const data = (body as { data?: unknown }).data;
              assert.ok(!path.startsWith("/api/") || data !== undefined, `${path}?${query}`);
            } else {
              assertDocumentedError(res.status, body, `${path}?${query}`);
            }
          }),
          params(300),
        );
      });

      await t.step("every documented API read of one item", async () => {
        const segment = fc.oneof(pathSegment, fc.constantFrom(...ids, key.prefix, key.id));
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...items), segment, async (path, ref) => {
            const res = await server.fetch(`${server.url}${path}${ref}`, { headers: operator });
            const body = await jsonBody(res, `${path}${ref}`);
            if (res.status !== 200) assertDocumentedError(res.status, body, `${path}${ref}`);
          }),
          params(200),
        );
      });

      await t.step("site pages and feeds", async () => {
        const target = fc.oneof(
          fc.tuple(fc.constantFrom(...SITE_PATHS), queryString).map(([p, q]) => `${p}?${q}`),
          fc.tuple(fc.oneof(pathSegment, fc.constantFrom(...ids)), fc.boolean())
            .map(([id, ics]) => `/events/${id}${ics ? "/calendar.ics" : ""}`),
        );
        await fc.assert(
          fc.asyncProperty(target, async (path) => {
            const res = await server.fetch(`${server.url}${path}`, { redirect: "manual" });
            const text = await res.text();
            assert.ok(res.status < 500, `${path}: ${res.status} ${text.slice(0, 300)}`);
            assert.ok(text.length > 0 || res.status === 303 || res.status === 304, path);
          }),
          params(200),
        );
      });
    } finally {
      await server.close();
    }
  });
}
