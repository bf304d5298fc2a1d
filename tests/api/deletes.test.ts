/**
 * Removing events: by id (owner or operator), in batches by (external_id, platform), and all of a
 * contributor's at once. A deleted event leaves every listing and search at once, its vector too,
 * and the same pair pushed later is a new event. Nobody learns of another contributor's events.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { admin, eventually, type Json, search } from "../search/support.ts";

const LAVA = {
  title: "Volcano photography workshop",
  description: "Shooting lava flows and eruption plumes at night, safely.",
};

for (const kind of testBackends()) {
  Deno.test(`[${kind}] deleting events, one, in batches, and all of a contributor's`, async (t) => {
    const server = await startTestServer(kind);
    const sql = server.service.deps.db.sql;
    const call = async (method: string, path: string, key: string | null, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          ...(key ? { Authorization: `Bearer ${key}` } : {}),
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text === "" ? undefined : JSON.parse(text) as Json };
    };
    const listed = async (query: string) =>
      (await call("GET", `/api/v1/events?${query}`, null)).body.data.map((e: Json) =>
        e.external_id
      );
    try {
      const alice = await createApiKey(server, {
        contributor: "alice",
        rate_limit_per_minute: 10_000,
      });
      const bob = await createApiKey(server, { contributor: "bob", rate_limit_per_minute: 10_000 });
      await postBatch(server.url, alice.key, {
        events: [
          sampleEvent(1, LAVA),
          sampleEvent(2),
          sampleEvent(3, { platform: "meetup" }),
          sampleEvent(4, { starts_at: "2001-01-01T10:00:00Z" }),
        ],
      });
      await postBatch(server.url, bob.key, { events: [sampleEvent(9, { title: "Bob's own" })] });
      const idOf = async (externalId: string) =>
        (await call("GET", `/api/v1/events?external_id=${externalId}&from=2000-01-01`, null))
          .body.data[0]?.id as string | undefined;
      const lavaId = (await idOf("evt-1"))!;

      await t.step(
        "a deleted event leaves the list, text and AI search, and its vector goes",
        async () => {
          if (kind === "pglite") {
            await admin(server, "POST", `/api/v1/admin/keys/${alice.id}/trust`);
            await eventually("the event is in AI search", async () => {
              const r = await search(server, { q: "lava eruption photos", mode: "semantic" });
              return r.body.data.some((h: Json) => h.event.external_id === "evt-1");
            });
          }
          assert.equal((await call("DELETE", `/api/v1/events/${lavaId}`, alice.key)).status, 204);
          assert.equal((await call("GET", `/api/v1/events/${lavaId}`, null)).status, 404);
          assert.deepEqual(await listed("q=volcano"), []);
          assert.ok(!(await listed("")).includes("evt-1"));
          for (const mode of ["text", ...(kind === "pglite" ? ["semantic", "hybrid"] : [])]) {
            // Semantic search finds the nearest events left; the deleted one is not among them.
            const r = await search(server, { q: "volcano lava eruption", mode });
            assert.equal(r.status, 200);
            assert.ok(!r.body.data.some((h: Json) => h.event.id === lavaId), mode);
            if (mode === "text") assert.deepEqual(r.body.data, []);
          }
          const [{ vectors }] = await sql`
          SELECT count(*)::int AS vectors FROM event_embeddings WHERE event_id = ${lavaId}`;
          assert.equal(vectors, 0);
          assert.equal((await call("DELETE", `/api/v1/events/${lavaId}`, alice.key)).status, 404);
        },
      );

      await t.step("the same pair pushed again is a new event", async () => {
        const again = await postBatch(server.url, alice.key, { events: [sampleEvent(1, LAVA)] });
        assert.deepEqual(again.body.data, { inserted: 1, updated: 0, errors: [] });
        const newId = await idOf("evt-1");
        assert.ok(newId && newId !== lavaId);
      });

      await t.step("another contributor's event is 404 and stays", async () => {
        const bobsId = (await idOf("evt-9"))!;
        const refused = await call("DELETE", `/api/v1/events/${bobsId}`, alice.key);
        assert.equal(refused.status, 404);
        const unknown = await call("DELETE", `/api/v1/events/${crypto.randomUUID()}`, alice.key);
        assert.equal(refused.body.message, unknown.body.message.replace(/"[^"]+"/, `"${bobsId}"`));
        assert.equal((await call("GET", `/api/v1/events/${bobsId}`, null)).status, 200);
        assert.equal((await call("DELETE", `/api/v1/events/not-an-id`, alice.key)).status, 404);
      });

      await t.step("an operator deletes any event; other scopes may not", async () => {
        const ops = await createApiKey(server, { contributor: "alice", scopes: ["admin"] });
        const bobsId = (await idOf("evt-9"))!;
        assert.equal((await call("DELETE", `/api/v1/events/${bobsId}`, null)).status, 401);
        // A key holding neither events:write nor admin (a scope of another version, say) is
        // refused like on every other guarded operation, not told that the event is missing.
        const reader = await createApiKey(server, { contributor: "bob" });
        await sql`UPDATE api_keys SET scopes = '{events:read}' WHERE id = ${reader.id}`;
        const forbidden = await call("DELETE", `/api/v1/events/${bobsId}`, reader.key);
        assert.equal(forbidden.status, 403);
        assert.equal(forbidden.body.code, "forbidden");
        assert.match(forbidden.body.message, /lacks the scope events:write or admin/);
        assert.equal((await call("GET", `/api/v1/events/${bobsId}`, null)).status, 200);
        assert.equal((await call("DELETE", `/api/v1/events/${bobsId}`, ops.key)).status, 204);
        await postBatch(server.url, bob.key, { events: [sampleEvent(9, { title: "Bob's own" })] });
      });

      await t.step("a batch delete reports each item, in order", async () => {
        const reply = await call("POST", "/api/v1/events/delete", alice.key, {
          events: [
            { external_id: "evt-2" },
            { external_id: "evt-404", platform: "luma" },
            { external_id: "evt-2", platform: "other" },
            { external_id: "evt-3", platform: "meetup" },
            { external_id: "evt-9" },
          ],
        });
        assert.equal(reply.status, 200);
        assert.equal(reply.body.data.deleted, 2);
        assert.deepEqual(
          reply.body.data.errors.map((e: Json) => [e.index, e.external_id, e.platform, e.code]),
          [
            [1, "evt-404", "luma", "not_found"],
            [2, "evt-2", "other", "not_found"],
            [4, "evt-9", "other", "not_found"],
          ],
        );
        assert.deepEqual((await listed("from=2000-01-01")).sort(), ["evt-1", "evt-4", "evt-9"]);
      });

      await t.step("a batch delete is validated like a push: all or nothing", async () => {
        const bad = await call("POST", "/api/v1/events/delete", alice.key, {
          events: [{ external_id: "evt-4" }, { external_id: "" }, { platform: "myspace" }],
        });
        assert.equal(bad.status, 400);
        assert.deepEqual(bad.body.details.map((d: Json) => d.path), [
          ["events", 1, "external_id"],
          ["events", 2, "external_id"],
          ["events", 2, "platform"],
        ]);
        assert.ok((await listed("from=2000-01-01")).includes("evt-4"));
        for (
          const body of [{ events: [] }, { events: Array(101).fill({ external_id: "x" }) }, {}]
        ) {
          assert.equal((await call("POST", "/api/v1/events/delete", alice.key, body)).status, 400);
        }
        const ops = await call("POST", "/api/v1/events/delete", server.adminKey, {
          events: [{ external_id: "evt-4" }],
        });
        assert.equal(ops.status, 403);
      });

      await t.step(
        "GET /api/v1/me/events lists only the caller's events, past ones too",
        async () => {
          await postBatch(server.url, alice.key, {
            events: [sampleEvent(5, { platform: "luma" }), sampleEvent(6, { platform: "luma" })],
          });
          const mine = await call("GET", "/api/v1/me/events", alice.key);
          assert.equal(mine.status, 200);
          const pairs = mine.body.data.map((e: Json) => `${e.platform}/${e.external_id}`);
          assert.deepEqual(pairs, ["luma/evt-5", "luma/evt-6", "other/evt-1", "other/evt-4"]);
          assert.deepEqual(Object.keys(mine.body.data[0]).sort(), [
            "external_id",
            "id",
            "platform",
            "source_url",
            "starts_at",
            "title",
            "updated_at",
          ]);
          assert.equal(mine.body.next_cursor, null);
          const walked: string[] = [];
          let cursor: string | null = "";
          for (let page = 0; cursor !== null && page < 10; page++) {
            const query: string = `limit=1${cursor ? `&cursor=${cursor}` : ""}`;
            const reply = await call("GET", `/api/v1/me/events?${query}`, alice.key);
            walked.push(...reply.body.data.map((e: Json) => `${e.platform}/${e.external_id}`));
            cursor = reply.body.next_cursor;
          }
          assert.deepEqual(walked, pairs);
          const luma = await call("GET", "/api/v1/me/events?platform=luma", alice.key);
          assert.equal(luma.body.data.length, 2);
          const prefix = await call("GET", "/api/v1/me/events?external_id_prefix=evt-4", alice.key);
          assert.deepEqual(prefix.body.data.map((e: Json) => e.external_id), ["evt-4"]);
          for (
            const query of ["limit=1001", "limit=0", "cursor=bogus", "platform=myspace", "x=1"]
          ) {
            const reply = await call("GET", `/api/v1/me/events?${query}`, alice.key);
            assert.equal(reply.status, 400, query);
            assert.equal(reply.body.details[0].path[0], "query");
          }
          const bobs = await call("GET", "/api/v1/me/events", bob.key);
          assert.deepEqual(bobs.body.data.map((e: Json) => e.external_id), ["evt-9"]);
          assert.equal((await call("GET", "/api/v1/me/events", server.adminKey)).status, 403);
        },
      );

      await t.step("an operator deletes every event of a contributor at once", async () => {
        const keys = (await admin(server, "GET", "/api/v1/admin/keys")).body.data;
        const aliceContributor = keys.find((k: Json) => k.id === alice.id).contributor_id;
        const path = `/api/v1/admin/contributors/${aliceContributor}/events`;
        assert.equal((await call("DELETE", path, alice.key)).status, 403);
        const done = await call("DELETE", path, server.adminKey);
        assert.deepEqual(done, { status: 200, body: { data: { deleted: 4 } } });
        assert.deepEqual((await call("GET", "/api/v1/me/events", alice.key)).body.data, []);
        assert.deepEqual(await listed("from=2000-01-01"), ["evt-9"]);
        const again = await call("DELETE", path, server.adminKey);
        assert.deepEqual(again.body, { data: { deleted: 0 } });
        for (const id of [crypto.randomUUID(), "nope"]) {
          const missing = await call(
            "DELETE",
            `/api/v1/admin/contributors/${id}/events`,
            server.adminKey,
          );
          assert.equal(missing.status, 404);
        }
      });
    } finally {
      await server.close();
    }
  });
}
