/**
 * Events stored under older duplicate rules are looked at again under the current ones: their
 * lookup keys, detected links and groups are rewritten, operators' decisions kept, and a run
 * stopped part-way resumes where it stopped. A deleted event's keys go with it. A new database
 * has nothing to look at again, so the first events pushed to it are not taken for re-detection.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestApp } from "../../dev-support/test-server.ts";
import {
  DUPLICATE_RULES_VERSION,
  redetectUnderCurrentRules,
} from "../../server/duplicates/rules-version.ts";
import { untilGrouped } from "../../dev-support/grouping.ts";
import { get, postEvents } from "../ingest/support/http.ts";

/** Conference `i` as one contributor words it. */
function listing(i: number, who: "alice" | "bob") {
  const name = `Quarzo${i} ${["Data", "Cloud", "Web"][i]}`;
  return {
    external_id: `${who}-${i}`,
    platform: who === "alice" ? "other" : "meetup",
    source_url: `https://${who}.example.org/${i}`,
    title: who === "alice" ? `${name} Conference 2033` : `${name} Conf`,
    starts_at: `2033-04-0${i + 1}T09:00:00Z`,
    city: ["Turin", "Ghent", "Tartu"][i],
  };
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] a new database starts under the current rules, with nothing to look at`, async () => {
    const server = await startTestApp(kind);
    try {
      const [state] = await server.service.deps.db.sql`
        SELECT version, redetected_through FROM duplicate_rules`;
      assert.deepEqual({ ...state }, {
        version: DUPLICATE_RULES_VERSION,
        redetected_through: null,
      });
    } finally {
      await server.close();
    }
  });

  Deno.test(`[${kind}] events stored under older duplicate rules are grouped again`, async () => {
    const server = await startTestApp(kind);
    const { sql } = server.service.deps.db;
    const shownCount = async () => {
      await untilGrouped(sql);
      return (await get(server.url, "/api/v1/events?from=2033-01-01&limit=100")).body.data.length;
    };
    try {
      const keys: Record<string, string> = {};
      for (const who of ["alice", "bob"] as const) {
        const { key } = await createApiKey(server, { contributor: who });
        keys[who] = key;
        const reply = await postEvents(server.url, key, {
          events: [0, 1, 2].map((i) => listing(i, who)),
        });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
      }
      assert.equal(await shownCount(), 3);
      // What older rules would have left: no keys or groups these rules can find.
      await sql`DELETE FROM event_key_sets`;
      await sql`DELETE FROM event_group_members`;
      await sql`DELETE FROM event_links WHERE kind = 'detected'`;
      await sql`UPDATE duplicate_rules SET version = ${DUPLICATE_RULES_VERSION - 1}`;
      assert.equal(await shownCount(), 6);

      // A run stopped with the service looks at nothing more and leaves the rest for the next.
      const stopped = AbortSignal.abort();
      assert.equal(await redetectUnderCurrentRules(sql, { signal: stopped }), 0);
      assert.equal(await shownCount(), 6);
      assert.equal(await redetectUnderCurrentRules(sql, { batch: 2 }), 6);
      assert.equal(await shownCount(), 3);
      const [state] = await sql`SELECT version, redetected_through FROM duplicate_rules`;
      assert.deepEqual({ ...state }, {
        version: DUPLICATE_RULES_VERSION,
        redetected_through: null,
      });

      // A run stopped after four events resumes after them.
      const [fourth] = await sql<
        { id: string }[]
      >`SELECT id FROM events ORDER BY id OFFSET 3 LIMIT 1`;
      await sql`UPDATE duplicate_rules SET redetected_through = ${fourth.id}`;
      assert.equal(await redetectUnderCurrentRules(sql, { batch: 2 }), 2);
      assert.equal(await shownCount(), 3);
      assert.equal(await redetectUnderCurrentRules(sql), 0, "nothing left to look at");

      // Rules older than the database's never undo a newer server's work.
      assert.equal(
        await redetectUnderCurrentRules(sql, { version: DUPLICATE_RULES_VERSION - 1 }),
        0,
      );

      const detected = () => untilGrouped(sql);
      await detected();
      // A listing whose title changes leaves the group its old title joined.
      const renamed = { ...listing(0, "bob"), title: "Ostrica Summit Conf" };
      assert.equal((await postEvents(server.url, keys.bob, { events: [renamed] })).status, 200);
      await detected();
      assert.equal(await shownCount(), 4, "the renamed listing left its group");
      // A listing whose days change rewrites its set: ten days, six, ten a day later, then one.
      const long = { ...listing(1, "bob"), ends_at: "2033-04-11T18:00:00Z" };
      for (
        const moved of [
          long,
          { ...long, starts_at: "2033-04-06T09:00:00Z" },
          { ...long, starts_at: "2033-04-03T09:00:00Z", ends_at: "2033-04-12T18:00:00Z" },
          { ...listing(1, "bob"), ends_at: undefined },
        ]
      ) {
        assert.equal((await postEvents(server.url, keys.bob, { events: [moved] })).status, 200);
        await detected();
      }
      // One whose coordinates change rewrites them at its new latitude's degree, and back.
      const latitudes = async () => {
        await detected();
        return (await sql<{ lat: number | null }[]>`SELECT s.lat FROM event_key_sets s
          JOIN events e ON e.id = s.event_id WHERE e.external_id = 'bob-1'`).map((r) => r.lat);
      };
      const placed = { ...listing(1, "bob"), latitude: 51.05, longitude: 3.72 };
      assert.equal((await postEvents(server.url, keys.bob, { events: [placed] })).status, 200);
      await detected();
      assert.deepEqual(await latitudes(), [51]);
      assert.equal(
        (await postEvents(server.url, keys.bob, { events: [listing(1, "bob")] })).status,
        200,
      );
      await detected();
      assert.deepEqual(await latitudes(), [99], "no latitude");
      assert.equal(await shownCount(), 4, "moved back, it is grouped again");

      // A deleted event's keys go with it, a ten-day listing's among them.
      const tenDays = { ...listing(2, "bob"), ends_at: "2033-04-12T18:00:00Z" };
      assert.equal((await postEvents(server.url, keys.bob, { events: [tenDays] })).status, 200);
      await detected();
      await sql`DELETE FROM events WHERE external_id LIKE 'alice-%' OR external_id = 'bob-2'`;
      const [orphans] = await sql`SELECT count(*)::int AS n FROM event_key_sets k
        WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.id = k.event_id)`;
      assert.equal(orphans.n, 0, "no set of a deleted event");
      const [kept] = await sql`SELECT count(*)::int AS n FROM event_key_sets`;
      assert.ok(kept.n > 0, "the other listings keep theirs");
    } finally {
      await server.close();
    }
  });
}
