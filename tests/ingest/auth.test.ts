/**
 * Authentication and scopes of POST /api/v1/events: 401 and 403 exactly as docs/api.md says
 * (#keys-scopes-and-rate-limits, #errors).
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey } from "../../dev-support/test-server.ts";
import { generateApiKey } from "../../shared/api-key-format.ts";
import { listAll, post, type Reply, send, serverWithKey } from "./support/http.ts";
import { freshEvent } from "./support/batches.ts";

/** Asserts a 401 with a Bearer challenge and a JSON error and message. */
function assertUnauthorized(reply: Reply, message?: RegExp): void {
  assert.equal(reply.status, 401, JSON.stringify(reply.body));
  assert.match(reply.headers.get("WWW-Authenticate") ?? "", /^Bearer\b/);
  assert.equal(typeof reply.body.error, "string");
  assert.equal(typeof reply.body.message, "string");
  if (message) assert.match(reply.body.message, message);
}

/** Changes the last checksum character, keeping the key's shape. */
function breakChecksum(key: string): string {
  const last = key.at(-1) === "a" ? "b" : "a";
  return key.slice(0, -1) + last;
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] only a valid key with events:write may push events`, async (t) => {
    const { server, key } = await serverWithKey(kind);
    const batch = () => ({ events: [freshEvent({ title: "Should not be stored" })] });
    const withHeader = (authorization: string | null) =>
      send(`${server.url}/api/v1/events`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          ...(authorization === null ? {} : { Authorization: authorization }),
        },
        body: JSON.stringify(batch()),
      });
    try {
      await t.step("a request without a key gets 401 with a Bearer challenge", async () => {
        assertUnauthorized(await withHeader(null), /Authorization: Bearer/);
      });

      await t.step("a malformed Authorization header gets 401", async () => {
        for (
          const header of [
            `Basic ${btoa("user:password")}`,
            `Token ${key}`,
            "Bearer",
            "Bearer ",
            `Bearer ${key} extra`,
            key,
          ]
        ) {
          assertUnauthorized(await withHeader(header));
        }
      });

      await t.step("a key with a wrong checksum or shape gets 401 as malformed", async () => {
        for (
          const bad of [
            breakChecksum(key),
            key.slice(0, -1),
            `${key}x`,
            key.replace("evk_", "evx_"),
            "evk_",
            "not-a-key",
          ]
        ) {
          assertUnauthorized(await withHeader(`Bearer ${bad}`), /malformed/);
        }
      });

      await t.step("a well-formed key the service never issued gets 401", async () => {
        assertUnauthorized(await withHeader(`Bearer ${generateApiKey()}`), /not known/);
      });

      await t.step("the bearer scheme is case-insensitive", async () => {
        assert.equal((await withHeader(`bearer ${key}`)).status, 200);
        assert.equal((await withHeader(`BEARER  ${key}`)).status, 200);
      });

      await t.step("a revoked key fails on its very next request", async () => {
        const k = await createApiKey(server, { name: "to revoke" });
        assert.equal((await withHeader(`Bearer ${k.key}`)).status, 200);
        const revoked = await post(
          server.url,
          `/api/v1/admin/keys/${k.id}/revoke`,
          server.adminKey,
          "",
        );
        assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
        assertUnauthorized(await withHeader(`Bearer ${k.key}`), /revoked/);
      });

      await t.step(
        "a key without events:write gets 403 with a message naming the scope",
        async () => {
          const adminOnly = await createApiKey(server, { scopes: ["admin"], name: "ops" });
          const reply = await withHeader(`Bearer ${adminOnly.key}`);
          assert.equal(reply.status, 403, JSON.stringify(reply.body));
          assert.match(reply.body.message, /events:write/);
          assert.equal(typeof reply.body.error, "string");
        },
      );

      await t.step("the operator key cannot push events", async () => {
        const reply = await withHeader(`Bearer ${server.adminKey}`);
        assert.equal(reply.status, 403, JSON.stringify(reply.body));
        assert.match(reply.body.message, /events:write/);
      });

      await t.step("a key holding both scopes may push events and manage keys", async () => {
        const both = await createApiKey(server, { scopes: ["events:write", "admin"] });
        assert.equal((await withHeader(`Bearer ${both.key}`)).status, 200);
        const keys = await send(`${server.url}/api/v1/admin/keys`, {
          headers: { Authorization: `Bearer ${both.key}` },
        });
        assert.equal(keys.status, 200);
      });

      await t.step("nothing sent with a refused key was stored", async () => {
        const accepted = (await listAll(server.url, "from=1900-01-01&collapse=false"))
          .filter((e) => e.title === "Should not be stored");
        // Exactly the four requests above that were meant to pass.
        assert.equal(accepted.length, 4);
      });
    } finally {
      await server.close();
    }
  });
}
