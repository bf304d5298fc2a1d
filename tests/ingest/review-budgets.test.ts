/**
 * Budgets of unreviewed contributors: a new account is held to its stored upcoming events and
 * active keys, its keys get the lower rate, a push past the budget is refused whole with its own
 * status and code; trusting one of its keys lifts the budget, and operator-made keys never had one.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { admin } from "../search/support.ts";
import { dashboardKey, signedUpContributor } from "../support/unreviewed.ts";

const LIMIT = 150;

/** `n` events numbered from `first`, upcoming. */
function batch(first: number, n: number) {
  return { events: Array.from({ length: n }, (_, i) => sampleEvent(first + i)) };
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a new account is held to its budgets until an operator trusts a key`, async (t) => {
    const server = await startTestServer(kind, {
      unreviewed: { maxUpcomingEvents: LIMIT, maxKeys: 3, rateLimitPerMinute: 7 },
    });
    const sql = server.service.deps.db.sql;
    const storedOf = async (contributorId: string) =>
      (await sql`SELECT count(*)::int AS n FROM events WHERE contributor_id = ${contributorId}`)[0]
        .n;
    try {
      const spammer = await signedUpContributor(server.url, { email: "new@example.org", keys: 3 });
      const [one, two, three] = spammer.keys;
      const [{ contributor_id: contributorId }] =
        await sql`SELECT contributor_id FROM api_keys WHERE id = ${one.id}`;

      await t.step(
        "its dashboard keys get the lower rate, and a fourth key is refused",
        async () => {
          const rates = await sql`SELECT rate_limit_per_minute AS r FROM api_keys
          WHERE contributor_id = ${contributorId}`;
          assert.deepEqual(rates.map((row) => row.r), [7, 7, 7]);
          const dashboard = await spammer.client.get("/dashboard");
          assert.match(dashboard.text, /at most\s+150 upcoming events and 3\s+keys/);
          assert.match(dashboard.text, /7\s+requests a minute/);
          const pushed = await postBatch(server.url, one.key, batch(1, 1));
          assert.equal(pushed.headers.get("RateLimit-Policy"), '"default";q=7;w=60');
          const fourth = await dashboardKey(spammer.client, "one too many");
          assert.ok("problem" in fourth);
          assert.match(fourth.problem, /You have 3 keys already.*reviewed.*\(3\)/);
          const [{ n }] = await sql`SELECT count(*)::int AS n FROM api_keys
          WHERE contributor_id = ${contributorId}`;
          assert.equal(n, 3);
        },
      );

      await t.step("a push past the upcoming-events budget is refused whole", async () => {
        assert.equal((await postBatch(server.url, one.key, batch(1, 100))).status, 200);
        assert.equal(await storedOf(contributorId), 100);
        const refused = await postBatch(server.url, two.key, batch(101, 51));
        assert.equal(refused.status, 409);
        assert.equal(refused.body.code, "review_budget_exceeded");
        assert.match(refused.body.message, /at most 150 upcoming events/);
        assert.match(refused.body.message, /you have 100 stored/);
        assert.match(refused.body.message, /operator trusts one of your keys/);
        assert.equal(await storedOf(contributorId), 100, "nothing stored in part");
        // Updating what is stored never passes the budget; up to it is fine.
        assert.equal((await postBatch(server.url, two.key, batch(1, 100))).status, 200);
        assert.equal((await postBatch(server.url, two.key, batch(101, 50))).status, 200);
        assert.equal(await storedOf(contributorId), LIMIT);
      });

      await t.step("events already over do not count against the budget", async () => {
        const past = {
          events: [sampleEvent(900, { starts_at: "2020-01-01T10:00:00Z" })],
        };
        assert.equal((await postBatch(server.url, three.key, past)).status, 200);
        assert.equal((await postBatch(server.url, three.key, batch(151, 1))).status, 409);
      });

      await t.step("two batches at once cannot both slip past the budget", async () => {
        await sql`DELETE FROM events WHERE contributor_id = ${contributorId}`;
        assert.equal((await postBatch(server.url, one.key, batch(1, 100))).status, 200);
        const answers = await Promise.all([
          postBatch(server.url, two.key, batch(1001, 40)),
          postBatch(server.url, three.key, batch(2001, 40)),
        ]);
        assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
        assert.equal(await storedOf(contributorId), 140);
      });

      await t.step("trusting one of its keys lifts both budgets", async () => {
        assert.equal(
          (await admin(server, "POST", `/api/v1/admin/keys/${one.id}/trust`)).status,
          200,
        );
        assert.equal((await postBatch(server.url, three.key, batch(3001, 100))).status, 200);
        assert.equal(await storedOf(contributorId), 240);
        const fourth = await dashboardKey(spammer.client, "now allowed");
        assert.ok("key" in fourth, JSON.stringify(fourth));
        assert.doesNotMatch((await spammer.client.get("/dashboard")).text, /upcoming events and/);
      });
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] keys made by an operator are never held to the budget`, async () => {
    const server = await startTestServer(kind, { unreviewed: { maxUpcomingEvents: 50 } });
    try {
      const key = await createApiKey(server, { contributor: "partner feed" });
      assert.equal((await postBatch(server.url, key.key, batch(1, 100))).status, 200);
      assert.equal((await postBatch(server.url, key.key, batch(101, 100))).status, 200);
      const list = await (await fetch(`${server.url}/api/v1/events?limit=1`)).json();
      assert.equal(list.data.length, 1);
    } finally {
      await server.close();
    }
  });
}
