/**
 * What HTTP clients and browsers rely on beyond the bodies: 405 with Allow, CORS on public reads
 * (preflight included), short caching with ETag and 304, and plain error messages.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] methods, CORS, caching and messages`, async (t) => {
    const server = await startTestServer(kind);
    const url = (path: string) => `${server.url}${path}`;
    try {
      const key = await createApiKey(server, { rate_limit_per_minute: 100_000 });
      await postBatch(server.url, key.key, { events: [sampleEvent(1)] });

      await t.step("a known path with another method answers 405 with Allow", async () => {
        const cases: [string, string, string][] = [
          ["PUT", "/api/v1/events", "GET, HEAD, POST, OPTIONS"],
          ["DELETE", "/api/v1/search", "GET, HEAD, OPTIONS"],
          ["POST", "/healthz", "GET, HEAD, OPTIONS"],
          ["GET", "/api/v1/admin/keys/evk_AbCd1234/trust", "POST"],
          ["DELETE", "/api/v1/admin/keys", "GET, HEAD, POST"],
        ];
        for (const [method, path, allow] of cases) {
          const res = await fetch(url(path), { method });
          const body = await res.json();
          assert.equal(res.status, 405, `${method} ${path}`);
          assert.equal(res.headers.get("Allow"), allow, `${method} ${path}`);
          assert.equal(body.code, "method_not_allowed");
          assert.match(body.message, new RegExp(`use ${allow}`));
        }
      });

      await t.step("an unknown path is still a 404", async () => {
        const res = await fetch(url("/api/v1/nothing"), { method: "PUT" });
        assert.equal(res.status, 404);
        assert.equal((await res.json()).code, "not_found");
      });

      await t.step("public reads answer any origin, preflight included", async () => {
        const origin = { Origin: "https://calendar.example" };
        for (const path of ["/api/v1/events", "/api/v1/search?q=talk", "/api/v1/events/x"]) {
          const res = await fetch(url(path), { headers: origin });
          await res.body?.cancel();
          assert.equal(res.headers.get("Access-Control-Allow-Origin"), "*", path);
          assert.match(res.headers.get("Access-Control-Expose-Headers") ?? "", /ETag/);
        }
        const preflight = await fetch(url("/api/v1/events"), {
          method: "OPTIONS",
          headers: {
            ...origin,
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "If-None-Match",
          },
        });
        await preflight.body?.cancel();
        assert.equal(preflight.status, 204);
        assert.equal(preflight.headers.get("Access-Control-Allow-Origin"), "*");
        assert.match(preflight.headers.get("Access-Control-Allow-Methods") ?? "", /GET/);
        assert.doesNotMatch(preflight.headers.get("Access-Control-Allow-Methods") ?? "", /POST/);
        assert.match(preflight.headers.get("Access-Control-Allow-Headers") ?? "", /If-None-Match/i);
      });

      await t.step("key-authenticated operations do not answer other origins", async () => {
        const res = await fetch(url("/api/v1/admin/keys"), {
          headers: { Origin: "https://evil.example", Authorization: `Bearer ${server.adminKey}` },
        });
        await res.body?.cancel();
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("Access-Control-Allow-Origin"), null);
      });

      await t.step(
        "public GETs carry a short Cache-Control and an ETag; 304 while it holds",
        async () => {
          const first = await fetch(url("/api/v1/events"));
          await first.body?.cancel();
          assert.match(first.headers.get("Cache-Control") ?? "", /^public, max-age=\d{1,3}$/);
          const etag = first.headers.get("ETag")!;
          assert.match(etag, /^"[\w-]+"$/);
          for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
            const again = await fetch(url("/api/v1/events"), {
              headers: { "If-None-Match": condition },
            });
            assert.equal(again.status, 304, condition);
            assert.equal(await again.text(), "");
            assert.equal(again.headers.get("ETag"), etag);
          }
          await postBatch(server.url, key.key, { events: [sampleEvent(2)] });
          const changed = await fetch(url("/api/v1/events"), {
            headers: { "If-None-Match": etag },
          });
          assert.equal(changed.status, 200);
          assert.equal((await changed.json()).data.length, 2);
          assert.notEqual(changed.headers.get("ETag"), etag);
        },
      );

      await t.step("errors are not cached, and /healthz is always revalidated", async () => {
        const missing = await fetch(url(`/api/v1/events/${crypto.randomUUID()}`));
        await missing.body?.cancel();
        assert.equal(missing.status, 404);
        assert.equal(missing.headers.get("Cache-Control"), null);
        assert.equal(missing.headers.get("ETag"), null);
        const health = await fetch(url("/healthz"));
        await health.body?.cancel();
        assert.equal(health.headers.get("Cache-Control"), "no-cache");
      });

      await t.step("messages say what is wrong in plain words", async () => {
        const query = await (await fetch(url("/api/v1/events?colour=red&limit=1&limit=2"))).json();
        assert.deepEqual(query.details.map((d: { path: unknown }) => d.path), [
          ["query", "limit"],
          ["query", "colour"],
        ]);
        assert.match(query.details[0].message, /limit is given more than once/);
        assert.match(query.details[1].message, /colour is not a query parameter/);
        assert.doesNotMatch(JSON.stringify(query), /request body/);

        const noName = await fetch(url("/api/v1/admin/keys"), {
          method: "POST",
          headers: {
            Authorization: `Bearer ${server.adminKey}`,
            "Content-Type": "application/json",
          },
          body: JSON.stringify({ contributor: "x" }),
        });
        assert.deepEqual((await noName.json()).details, [
          { path: ["name"], message: "name is required" },
        ]);

        const huge = await fetch(url("/api/v1/events"), {
          method: "POST",
          headers: { Authorization: `Bearer ${key.key}`, "Content-Type": "application/json" },
          body: JSON.stringify({ events: [sampleEvent(3)] }).replace("}", ',"price_min":1e400}'),
        });
        const [problem] = (await huge.json()).details;
        assert.deepEqual(problem.path, ["events", 0, "price_min"]);
        assert.doesNotMatch(problem.message, /must be a number, not a number/);
        assert.match(problem.message, /too large/);

        const slow = await createApiKey(server, { name: "slow", rate_limit_per_minute: 1 });
        await postBatch(server.url, slow.key, { events: [sampleEvent(4)] });
        const limited = await postBatch(server.url, slow.key, { events: [sampleEvent(4)] });
        assert.equal(limited.status, 429);
        assert.match(limited.body.message, /limit of 1 request a minute/);
      });
    } finally {
      await server.close();
    }
  });
}
