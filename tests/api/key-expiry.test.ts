/**
 * Key lifetime: an operator may give a key an expiry; every key view shows it; from then on the
 * key gets 401 saying that it expired, when, and how to get a new one.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { admin } from "../search/support.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a key with expires_at works until then and gets 401 after`, async () => {
    const server = await startTestServer(kind);
    try {
      const inAYear = new Date(Date.now() + 365 * 86_400_000);
      const created = await admin(server, "POST", "/api/v1/admin/keys", {
        contributor: "temp",
        name: "conference week",
        expires_at: inAYear.toISOString().replace("Z", "+00:00"),
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.data.expires_at, inAYear.toISOString());
      const { key, id } = created.body.data;
      assert.equal((await postBatch(server.url, key, { events: [sampleEvent(1)] })).status, 200);

      const forever = await admin(server, "POST", "/api/v1/admin/keys", {
        contributor: "temp",
        name: "no expiry",
      });
      assert.equal(forever.body.data.expires_at, null);
      const views = (await admin(server, "GET", "/api/v1/admin/keys")).body.data;
      assert.ok(views.every((k: { expires_at?: unknown }) => "expires_at" in k));
      assert.equal(
        (await admin(server, "GET", `/api/v1/admin/keys/${id}`)).body.data.expires_at,
        inAYear.toISOString(),
      );

      // The clock is not waited for: the expiry is moved into the past in the database.
      const sql = server.service.deps.db.sql;
      await sql`UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE id = ${id}`;
      const refused = await postBatch(server.url, key, { events: [sampleEvent(2)] });
      assert.equal(refused.status, 401);
      assert.match(refused.headers.get("WWW-Authenticate") ?? "", /^Bearer/);
      assert.match(refused.body.message, /expired at \d{4}-\d{2}-\d{2}T/);
      assert.match(refused.body.message, /new key/);
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] expires_at must be a future date-time with an offset`, async () => {
    const server = await startTestServer(kind);
    try {
      const cases: [unknown, RegExp][] = [
        ["2001-01-01T00:00:00Z", /not in the future/],
        ["2030-01-01", /date without a time/],
        ["2030-01-01T10:00:00", /no UTC offset/],
        ["2030-02-30T10:00:00Z", /not a real date/],
        [1_900_000_000, /must be a date-time string/],
      ];
      for (const [expiresAt, message] of cases) {
        const reply = await admin(server, "POST", "/api/v1/admin/keys", {
          contributor: "temp",
          name: "bad expiry",
          expires_at: expiresAt,
        });
        assert.equal(reply.status, 400, JSON.stringify(expiresAt));
        assert.deepEqual(reply.body.details[0].path, ["expires_at"]);
        assert.match(reply.body.details[0].message, message);
      }
    } finally {
      await server.close();
    }
  });
}
