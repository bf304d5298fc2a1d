/**
 * The served OpenAPI document is the contract: every documented operation is driven with good and
 * bad requests, every answer (status, headers, body) must match the document, and every status
 * the document lists must have been provoked, except the few a test cannot cause (named below).
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { ContractChecker } from "./support/openapi-contract.ts";
import { type Call, type Checked, contractClient, freshClient } from "./support/contract-client.ts";
import { signedUpContributor } from "../support/unreviewed.ts";
import { untilGrouped } from "../../dev-support/grouping.ts";

const OVERSIZED = "x".repeat(4 * 1024 * 1024 + 1);

/** Documented statuses no test can provoke, and why. */
function unreachable(checker: ContractChecker, kind: string): Set<string> {
  const ops = checker.operations().map(([, , op]) => op.operationId as string);
  return new Set([
    // An unexpected failure, and a database gone for a moment: nothing a client sends causes
    // them (tests/hardening restarts PostgreSQL under load for the second).
    ...ops.map((op) => `${op} 500`),
    ...ops.filter((op) => op !== "searchEvents").map((op) => `${op} 503`),
    // A client that stalls for the read timeout (30 s here): tests/ops/slow-clients.test.ts
    // provokes it on a server with a short one.
    ...ops.map((op) => `${op} 408`),
    // A path parameter is any string; an unknown one is a 404, never a 400.
    ...["getEvent", "deleteEvent", "getKey", "trustKey", "untrustKey", "revokeKey"]
      .map((op) => `${op} 400`),
    ...["getSavedSearch", "deleteSavedSearch", "testSavedSearch"].map((op) => `${op} 400`),
    "deleteContributorEvents 400",
    "cleanUpContributor 400",
    // The embedded database has pgvector (AI search is available) and can be backed up here;
    // a PostgreSQL server is backed up with pg_dump.
    ...(kind === "pglite" ? ["searchEvents 503", "backupDatabase 409"] : ["backupDatabase 200"]),
  ]);
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] every answer of every operation matches the OpenAPI document`, async (t) => {
    const server = await startTestServer(kind, {
      trustProxy: true,
      publicRateLimitPerMinute: 2,
      unreviewed: { maxUpcomingEvents: 1 },
    });
    try {
      const document = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
      const checker = new ContractChecker(document);
      const call = contractClient(server, checker);
      const admin = server.adminKey;
      const writer = await createApiKey(server, { rate_limit_per_minute: 100_000 });
      const other = await createApiKey(server, { contributor: "someone else" });
      /**
       * Three calls from one key allowed 1 a minute (or one client address allowed 2): the last
       * is a 429.
       */
      const overLimit = async (make: (key: string, client: string) => Call) => {
        const slow = await createApiKey(server, {
          name: "slow",
          scopes: ["admin", "events:write"],
          rate_limit_per_minute: 1,
        });
        const client = freshClient();
        const answers: Checked[] = [];
        for (let i = 0; i < 3; i++) answers.push(await call(make(slow.key, client)));
        assert.equal(answers[2].status, 429, JSON.stringify(answers.map((a) => a.status)));
      };
      const refused = async (c: Call, status: number) => {
        const answer = await call(c);
        assert.equal(
          answer.status,
          status,
          `${c.method} ${c.path}: ${JSON.stringify(answer.body)}`,
        );
        return answer;
      };

      await t.step("the document itself, and its 304", async () => {
        const first = await refused({ method: "GET", path: "/api/v1/openapi.json" }, 200);
        await refused({
          method: "GET",
          path: "/api/v1/openapi.json",
          headers: { "If-None-Match": first.headers.get("ETag")! },
        }, 304);
        await overLimit((_, client) => ({ method: "GET", path: "/api/v1/openapi.json", client }));
      });

      let eventId = "";
      await t.step("pushEvents", async () => {
        const push = (body: unknown, key: string | null = writer.key): Call => ({
          method: "POST",
          path: "/api/v1/events",
          key,
          body,
        });
        await refused(push({ events: [sampleEvent(1, { topics: ["rust"] })] }, other.key), 200);
        const mixed = await refused(push({ events: [sampleEvent(1), sampleEvent(2)] }), 200);
        assert.equal(mixed.body.data.errors[0].code, "owned_by_another_contributor");
        await refused(push({ events: [{ title: "no id" }] }), 400);
        await refused(push({ events: [sampleEvent(3)] }, null), 401);
        await refused(push({ events: [sampleEvent(3)] }, admin), 403);
        await refused({ ...push(undefined), raw: OVERSIZED }, 413);
        await refused({ ...push(undefined), raw: "{}", contentType: "text/plain" }, 415);
        await overLimit((key) => push({ events: [sampleEvent(4)] }, key));
        // A new account's key, over the budget of an unreviewed contributor (1 here).
        const stranger = await signedUpContributor(server.url, {
          email: "stranger@example.org",
          keys: 1,
        });
        const strangerKey = stranger.keys[0].key;
        await refused(push({ events: [sampleEvent(5, { external_id: "s-1" })] }, strangerKey), 200);
        await refused(push({ events: [sampleEvent(6, { external_id: "s-2" })] }, strangerKey), 409);
        // Grouped after the pushes' answers: the reads below compare ETags of a settled state.
        await untilGrouped(server.service.deps.db.sql);
        const list = await refused({ method: "GET", path: "/api/v1/events" }, 200);
        eventId = list.body.data[0].id;
      });

      await t.step("listEvents, getEvent and searchEvents", async () => {
        for (const [path, query] of [["/api/v1/events", ""], ["/api/v1/search", "q=talk"]]) {
          const first = await refused({ method: "GET", path, query }, 200);
          const etag = first.headers.get("ETag")!;
          await refused({ method: "GET", path, query, headers: { "If-None-Match": etag } }, 304);
          await refused({ method: "GET", path, query: `${query}&limit=0` }, 400);
          await overLimit((_, client) => ({ method: "GET", path, query, client }));
        }
        await refused({ method: "GET", path: "/api/v1/events", query: "platform=myspace" }, 400);
        for (const mode of ["text", "semantic", "hybrid"]) {
          const answer = await call({
            method: "GET",
            path: "/api/v1/search",
            query: `q=talk&mode=${mode}`,
          });
          assert.ok([200, 503].includes(answer.status));
        }
        const one = { method: "GET", path: "/api/v1/events/{id}", params: { id: eventId } };
        const first = await refused(one, 200);
        await refused({ ...one, headers: { "If-None-Match": first.headers.get("ETag")! } }, 304);
        await refused({ ...one, params: { id: crypto.randomUUID() } }, 404);
        await refused({ ...one, params: { id: "not-an-id" } }, 404);
        await overLimit((_, client) => ({ ...one, client }));
      });

      await t.step("getHealth", async () => {
        // The body carries the disk's free bytes, which other processes' writes change between
        // two requests: 304 is due when nothing changed, so a few pairs are asked for one.
        let again: Awaited<ReturnType<typeof call>> | undefined;
        for (let attempt = 0; attempt < 5 && again?.status !== 304; attempt++) {
          const first = await refused({ method: "GET", path: "/healthz" }, 200);
          again = await call({
            method: "GET",
            path: "/healthz",
            headers: { "If-None-Match": first.headers.get("ETag")! },
          });
        }
        assert.equal(again?.status, 304, "GET /healthz never answered 304 to its own ETag");
        await overLimit((_, client) => ({ method: "GET", path: "/healthz", client }));
      });

      await t.step("createKey and listKeys", async () => {
        const create = (body: unknown, key: string | null = admin): Call => ({
          method: "POST",
          path: "/api/v1/admin/keys",
          key,
          body,
        });
        const made = await refused(create({ contributor: "c", name: "n" }), 201);
        assert.match(made.body.data.key, /^evk_/);
        await refused(create({ contributor: "c" }), 400);
        await refused(create({ contributor: "c", name: "n" }, null), 401);
        await refused(create({ contributor: "c", name: "n" }, writer.key), 403);
        await refused({ ...create(undefined), raw: OVERSIZED }, 413);
        await refused({ ...create(undefined), raw: "x", contentType: "text/csv" }, 415);
        await overLimit((key) => create({ contributor: "c", name: "n" }, key));
        const list = (query = "", key: string | null = admin): Call => ({
          method: "GET",
          path: "/api/v1/admin/keys",
          query,
          key,
        });
        await refused(list(), 200);
        await refused(list("status=pending"), 200);
        await refused(list("status=bogus"), 400);
        await refused(list("", null), 401);
        await refused(list("", writer.key), 403);
        await overLimit((key) => list("", key));
      });

      await t.step("getKey, updateKey, trustKey, untrustKey, revokeKey", async () => {
        const unknown = "evk_ZZZZZZZZ";
        const subject = await createApiKey(server, { contributor: "subject" });
        const byRef = (method: string, path: string, ref: string, key: string | null = admin) => ({
          method,
          path,
          params: { ref },
          key,
        });
        const plain: [string, string][] = [
          ["GET", "/api/v1/admin/keys/{ref}"],
          ["POST", "/api/v1/admin/keys/{ref}/trust"],
          ["POST", "/api/v1/admin/keys/{ref}/untrust"],
          ["POST", "/api/v1/admin/keys/{ref}/revoke"],
        ];
        for (const [method, path] of plain) {
          await refused(byRef(method, path, subject.prefix), 200);
          await refused(byRef(method, path, unknown), 404);
          await refused(byRef(method, path, subject.id, null), 401);
          await refused(byRef(method, path, subject.id, other.key), 403);
          await overLimit((key) => byRef(method, path, subject.id, key));
        }
        // A key whose first batch is kept, and a revoked key that cannot be trusted.
        await refused(byRef("GET", "/api/v1/admin/keys/{ref}", writer.id), 200);
        await refused(byRef("POST", "/api/v1/admin/keys/{ref}/trust", subject.id), 409);
        const patch = (body: unknown, ref = other.id, key: string | null = admin): Call => ({
          method: "PATCH",
          path: "/api/v1/admin/keys/{ref}",
          params: { ref },
          key,
          body,
        });
        await refused(patch({ rate_limit_per_minute: 5 }), 200);
        await refused(patch({ rate_limit_per_minute: 0 }), 400);
        await refused(patch({ rate_limit_per_minute: 5 }, unknown), 404);
        await refused(patch({ rate_limit_per_minute: 5 }, other.id, null), 401);
        await refused(patch({ rate_limit_per_minute: 5 }, other.id, other.key), 403);
        await refused({ ...patch(undefined), raw: OVERSIZED }, 413);
        await refused({ ...patch(undefined), raw: "5", contentType: "text/plain" }, 415);
        await overLimit((key) => patch({ rate_limit_per_minute: 5 }, other.id, key));
      });

      await t.step("listMyEvents, deleteEvents and deleteEvent", async () => {
        const mine = (query = "", key: string | null = writer.key): Call => ({
          method: "GET",
          path: "/api/v1/me/events",
          query,
          key,
        });
        const page = await refused(mine("limit=1"), 200);
        assert.equal(page.body.data.length, 1);
        await refused(mine("limit=5000"), 400);
        await refused(mine("", null), 401);
        await refused(mine("", admin), 403);
        await overLimit((key) => mine("", key));

        const remove = (body: unknown, key: string | null = writer.key): Call => ({
          method: "POST",
          path: "/api/v1/events/delete",
          key,
          body,
        });
        const removed = await refused(
          remove({ events: [{ external_id: "evt-2" }, { external_id: "evt-1" }] }),
          200,
        );
        assert.equal(removed.body.data.errors[0].code, "not_found");
        await refused(remove({ events: [{ external_id: "" }] }), 400);
        await refused(remove({ events: [{ external_id: "x" }] }, null), 401);
        await refused(remove({ events: [{ external_id: "x" }] }, admin), 403);
        await refused({ ...remove(undefined), raw: OVERSIZED }, 413);
        await refused({ ...remove(undefined), raw: "x", contentType: "text/plain" }, 415);
        await overLimit((key) => remove({ events: [{ external_id: "x" }] }, key));

        const one = (id: string, key: string | null = writer.key): Call => ({
          method: "DELETE",
          path: "/api/v1/events/{id}",
          params: { id },
          key,
        });
        await call({
          method: "POST",
          path: "/api/v1/events",
          key: writer.key,
          body: { events: [sampleEvent(7)] },
        });
        const mineNow = await refused(mine(), 200);
        await refused(one(mineNow.body.data[0].id), 204);
        await refused(one(mineNow.body.data[0].id), 404);
        await refused(one(eventId, null), 401);
        const unscoped = await createApiKey(server, { contributor: "someone else" });
        await server.service.deps.db.sql`
          UPDATE api_keys SET scopes = '{events:read}' WHERE id = ${unscoped.id}`;
        await refused(one(eventId, unscoped.key), 403);
        // Back in the documented set, for the key listings that follow.
        await server.service.deps.db.sql`
          UPDATE api_keys SET scopes = '{events:write}' WHERE id = ${unscoped.id}`;
        await overLimit((key) => one(crypto.randomUUID(), key));
      });

      await t.step("cleanUpContributor", async () => {
        const victim = await createApiKey(server, { contributor: "to be cleaned up" });
        const listed = await refused(
          { method: "GET", path: "/api/v1/admin/keys", key: admin },
          200,
        );
        const id = listed.body.data.find((k: { id: string }) => k.id === victim.id).contributor_id;
        const cleanUp = (ref: string, key: string | null = admin): Call => ({
          method: "POST",
          path: "/api/v1/admin/contributors/{id}/clean-up",
          params: { id: ref },
          key,
        });
        await refused(cleanUp(id), 200);
        await refused(cleanUp(crypto.randomUUID()), 404);
        await refused(cleanUp(id, null), 401);
        await refused(cleanUp(id, writer.key), 403);
        await overLimit((key) => cleanUp(id, key));
      });

      await t.step("listAudit", async () => {
        const audit = (query = "", key: string | null = admin): Call => ({
          method: "GET",
          path: "/api/v1/admin/audit",
          query,
          key,
        });
        const page = await refused(audit("limit=1"), 200);
        assert.ok(page.body.next_cursor);
        await refused(audit(`cursor=${page.body.next_cursor}`), 200);
        await refused(audit("cursor=nope"), 400);
        await refused(audit("", null), 401);
        await refused(audit("", writer.key), 403);
        await overLimit((key) => audit("", key));
      });

      await t.step("deleteContributorEvents", async () => {
        const keys = await refused({ method: "GET", path: "/api/v1/admin/keys", key: admin }, 200);
        const contributor = keys.body.data.find((k: { id: string }) => k.id === other.id)
          .contributor_id;
        const all = (id: string, key: string | null = admin): Call => ({
          method: "DELETE",
          path: "/api/v1/admin/contributors/{id}/events",
          params: { id },
          key,
        });
        await refused(all(contributor), 200);
        await refused(all(crypto.randomUUID()), 404);
        await refused(all(contributor, null), 401);
        await refused(all(contributor, writer.key), 403);
        await overLimit((key) => all(contributor, key));
      });

      await t.step("markSameEvent and markNotSameEvent", async () => {
        await call({
          method: "POST",
          path: "/api/v1/events",
          key: writer.key,
          body: { events: [sampleEvent(21), sampleEvent(22)] },
        });
        const listed = await refused({
          method: "GET",
          path: "/api/v1/me/events",
          key: writer.key,
        }, 200);
        const [a, b] = listed.body.data.map((e: { id: string }) => e.id);
        for (const verb of ["same-as", "not-same-as"]) {
          const decide = (body: unknown, id = a, key: string | null = admin): Call => ({
            method: "POST",
            path: `/api/v1/admin/events/{id}/${verb}`,
            params: { id },
            body,
            key,
          });
          await refused(decide({ other_id: b }), 200);
          await refused(decide({ other_id: a }), 400);
          await refused(decide({ other: b }), 400);
          await refused(decide({ other_id: b }, crypto.randomUUID()), 404);
          await refused(decide({ other_id: b }, a, null), 401);
          await refused(decide({ other_id: b }, a, writer.key), 403);
          await refused({ ...decide(undefined), raw: OVERSIZED }, 413);
          await refused({ ...decide(undefined), raw: "{}", contentType: "text/plain" }, 415);
          await overLimit((key) => decide({ other_id: b }, a, key));
        }
      });

      await t.step("backupDatabase", async () => {
        const backup = (key: string | null = admin): Call => ({
          method: "GET",
          path: "/api/v1/admin/backup",
          key,
        });
        await refused(backup(), kind === "pglite" ? 200 : 409);
        await refused(backup(null), 401);
        await refused(backup(writer.key), 403);
        await overLimit((key) => backup(key));
      });

      await t.step("the saved-search operations", async () => {
        const searcher = await createApiKey(server, {
          contributor: "searcher",
          scopes: ["searches:write"],
          rate_limit_per_minute: 100_000,
        });
        const slow = await createApiKey(server, {
          contributor: "searcher",
          name: "slow searcher",
          scopes: ["searches:write"],
          rate_limit_per_minute: 1,
        });
        const searches = "/api/v1/me/searches";
        const one = "/api/v1/me/searches/{id}";
        const create = (body: unknown, key: string | null = searcher.key): Call => ({
          method: "POST",
          path: searches,
          key,
          body,
        });
        const made = await refused(create({ name: "Rust", q: "rust" }), 201);
        const id = made.body.data.id;
        await refused(create({ name: "" }), 400);
        await refused(create({ name: "mail", email: "instant" }), 409);
        await refused(create({ name: "x" }, null), 401);
        await refused(create({ name: "x" }, writer.key), 403);
        await refused({ ...create(undefined), raw: OVERSIZED }, 413);
        await refused({ ...create(undefined), raw: "{}", contentType: "text/plain" }, 415);
        const patch = (body: unknown, key: string | null = searcher.key, at = id): Call => ({
          method: "PATCH",
          path: one,
          params: { id: at },
          key,
          body,
        });
        await refused(patch({ paused: true }), 200);
        await refused(patch({ paused: "yes" }), 400);
        await refused(patch({ email: "daily" }), 409);
        await refused(patch({ paused: false }, searcher.key, crypto.randomUUID()), 404);
        await refused(patch({ paused: false }, null), 401);
        await refused(patch({ paused: false }, writer.key), 403);
        await refused({ ...patch(undefined), raw: OVERSIZED }, 413);
        await refused({ ...patch(undefined), raw: "{}", contentType: "text/plain" }, 415);
        const plain: [string, string, number][] = [
          ["GET", searches, 200],
          ["GET", one, 200],
          ["POST", `${one}/test`, 202],
          ["DELETE", one, 204],
        ];
        for (const [method, path, ok] of plain) {
          const at = (key: string | null, idHere = id): Call => ({
            method,
            path,
            params: path.includes("{id}") ? { id: idHere } : undefined,
            key,
          });
          await refused(at(searcher.key), ok);
          if (path.includes("{id}")) await refused(at(searcher.key, crypto.randomUUID()), 404);
          await refused(at(null), 401);
          await refused(at(writer.key), 403);
        }
        const client = freshClient();
        for (const call_ of [create({ name: "a" }, slow.key), patch({}, slow.key)]) {
          const answers: Checked[] = [];
          for (let i = 0; i < 3; i++) answers.push(await call({ ...call_, client }));
          assert.ok(answers.some((a) => a.status === 429));
        }
        for (
          const [method, path] of [["GET", searches], ["GET", one], ["POST", `${one}/test`], [
            "DELETE",
            one,
          ]]
        ) {
          const answers: Checked[] = [];
          for (let i = 0; i < 2; i++) {
            answers.push(
              await call({ method, path, params: { id }, key: slow.key, client }),
            );
          }
          assert.ok(answers.some((a) => a.status === 429));
        }
      });

      await t.step(
        "listFederationBlocks, blockFederationDomain, unblockFederationDomain",
        async () => {
          const blocks = (key: string | null = admin): Call => ({
            method: "GET",
            path: "/api/v1/admin/federation/blocks",
            key,
          });
          const block = (body: unknown, key: string | null = admin): Call => ({
            method: "POST",
            path: "/api/v1/admin/federation/blocks",
            key,
            body,
          });
          const unblock = (domain: string, key: string | null = admin): Call => ({
            method: "DELETE",
            path: "/api/v1/admin/federation/blocks/{domain}",
            params: { domain },
            key,
          });
          await refused(block({ domain: "spam.example" }), 201);
          await refused(block({ domain: "spam.example" }), 200);
          await refused(block({ domain: "https://spam.example/" }), 400);
          await refused({ ...block(undefined), raw: OVERSIZED }, 413);
          await refused({ ...block(undefined), raw: "{}", contentType: "text/plain" }, 415);
          await refused(block({ domain: "a.example" }, null), 401);
          await refused(block({ domain: "a.example" }, writer.key), 403);
          await overLimit((key) => block({ domain: "b.example" }, key));
          const listed = await refused(blocks(), 200);
          assert.ok(listed.body.data.some((b: { domain: string }) => b.domain === "spam.example"));
          await refused(blocks(null), 401);
          await refused(blocks(writer.key), 403);
          await overLimit((key) => blocks(key));
          await refused(unblock("spam.example"), 204);
          await refused(unblock("spam.example"), 404);
          await refused(unblock("not a domain"), 400);
          await refused(unblock("spam.example", null), 401);
          await refused(unblock("spam.example", writer.key), 403);
          await overLimit((key) => unblock("c.example", key));
        },
      );

      await t.step("every operation: a URL or a head past the HTTP layer's bounds", async () => {
        for (const [method, path] of checker.operations()) {
          const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
          const params = Object.fromEntries(names.map((name) => [name, "x"]));
          const base: Call = { method: method.toUpperCase(), path, params, key: admin };
          await refused({ ...base, query: `q=${"a".repeat(33 * 1024)}` }, 414);
          await refused({ ...base, headers: { "X-Padding": "b".repeat(49 * 1024) } }, 431);
        }
      });

      await t.step("every documented status was answered", () => {
        assert.deepEqual(checker.unseen(unreachable(checker, kind)), []);
      });
    } finally {
      await server.close();
    }
  });
}
