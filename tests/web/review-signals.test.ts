/**
 * Review signals: at ingestion, each signal (many links, repeated text, a far start, a title in
 * capitals, a cleaned-up contributor's host) raises the contributor in the review queue, which
 * says why; a signal never rejects an event.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { admin } from "../search/support.ts";
import { signedInOperator } from "../support/unreviewed.ts";
import { pruneOrphanSignals, signalCounts } from "../../server/db/event-signals.ts";

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** A batch carrying one signal, and the reason the queue gives for it. */
const SIGNAL_BATCHES: Record<string, { events: Record<string, unknown>[]; reason: RegExp }> = {
  many_links: {
    events: [sampleEvent(1, {
      starts_at: inDays(10),
      description: Array.from({ length: 5 }, (_, i) => `https://shop${i}.example/deal`).join(" "),
    })],
    reason: /1 event with many links in the description/,
  },
  repeated_text: {
    events: Array.from(
      { length: 5 },
      (_, i) => sampleEvent(i, { starts_at: inDays(10 + i), description: "Best   deal in town." }),
    ),
    reason: /5 events with the same text in many events of one batch/,
  },
  far_future: {
    events: [sampleEvent(1, { starts_at: inDays(3 * 365) })],
    reason: /1 event with starts more than two years ahead/,
  },
  shouting_title: {
    events: [sampleEvent(1, { starts_at: inDays(10), title: "FREE CRYPTO MEETUP TONIGHT" })],
    reason: /1 event with a title in capitals/,
  },
  spam_host: {
    events: [sampleEvent(1, { starts_at: inDays(10), source_url: "https://junk.example.com/x" })],
    reason: /1 event with a source URL host of a cleaned-up contributor/,
  },
};

/** The key prefixes of the review queue, in its order. */
function queueOrder(html: string): string[] {
  return [...html.matchAll(/<h2 id="key-[^"]+">[^<]*<code>(evk_[A-Za-z0-9]+)…<\/code>/g)]
    .map((m) => m[1]);
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] each review signal raises the contributor in the queue and says why`, async (t) => {
    const server = await startTestServer(kind, { operatorEmails: ["op@example.org"] });
    try {
      const op = await signedInOperator(server, "op@example.org");
      // A spammer cleaned up earlier leaves its host behind.
      const spammer = await createApiKey(server, { contributor: "spammer" });
      await postBatch(server.url, spammer.key, {
        events: [
          sampleEvent(1, { starts_at: inDays(5), source_url: "https://JUNK.example.com/a" }),
        ],
      });
      const [{ contributor_id: spammerId }] = await server.service.deps.db.sql`
        SELECT contributor_id FROM api_keys WHERE id = ${spammer.id}`;
      await admin(server, "POST", `/api/v1/admin/contributors/${spammerId}/clean-up`);

      const plain = await createApiKey(server, { contributor: "plain" });
      const pushed = await postBatch(server.url, plain.key, {
        events: [sampleEvent(1, { starts_at: inDays(3), description: "A talk about Rust." })],
      });
      assert.equal(pushed.status, 200);
      const first = await op.get("/review");
      assert.deepEqual(queueOrder(first.text), [plain.prefix]);
      assert.match(first.text, /No review signals/);

      for (const [signal, { events, reason }] of Object.entries(SIGNAL_BATCHES)) {
        await t.step(`${signal} raises its contributor above the plain one`, async () => {
          const key = await createApiKey(server, { contributor: `sig ${signal}` });
          // Pairs of their own: evt-1 is the plain contributor's.
          const own = events.map((e, i) => ({ ...e, external_id: `${signal}-${i}` }));
          const answer = await postBatch(server.url, key.key, { events: own });
          assert.equal(answer.status, 200, "a signal never rejects");
          assert.equal(answer.body.data.inserted, events.length);
          const queue = await op.get("/review");
          const order = queueOrder(queue.text);
          assert.ok(
            order.indexOf(key.prefix) < order.indexOf(plain.prefix),
            `${signal}: ${order.join(" ")}`,
          );
          assert.equal(order.at(-1), plain.prefix);
          const card = queue.text.slice(queue.text.indexOf(`<code>${key.prefix}…</code>`));
          assert.match(card.slice(0, card.indexOf("</article>")), reason);
        });
      }

      await t.step(
        "a deleted event's signals stop counting, and the prune removes them",
        async () => {
          const key = await createApiKey(server, { contributor: "deletes its shouting" });
          await postBatch(server.url, key.key, {
            events: [
              sampleEvent(8, {
                external_id: "loud",
                starts_at: inDays(4),
                title: "ALL CAPS TALK TONIGHT",
              }),
            ],
          });
          const sql = server.service.deps.db.sql;
          const [{ id }] = await sql`SELECT id FROM events WHERE external_id = 'loud'`;
          const [{ contributor_id: contributorId }] =
            await sql`SELECT contributor_id FROM api_keys WHERE id = ${key.id}`;
          assert.deepEqual(
            await signalCounts(sql, [contributorId]),
            new Map([[contributorId, { shouting_title: 1 }]]),
          );
          const deleted = await server.fetch(`/api/v1/events/${id}`, {
            method: "DELETE",
            headers: { Authorization: `Bearer ${key.key}` },
          });
          assert.equal(deleted.status, 204);
          assert.deepEqual(await signalCounts(sql, [contributorId]), new Map());
          await pruneOrphanSignals(sql);
          const [{ n }] =
            await sql`SELECT count(*)::int AS n FROM event_signals WHERE event_id = ${id}`;
          assert.equal(n, 0);
        },
      );

      await t.step("an edit that clears the signal clears it", async () => {
        const key = await createApiKey(server, { contributor: "fixes its title" });
        await postBatch(server.url, key.key, {
          events: [sampleEvent(7, { starts_at: inDays(4), title: "SHOUTING ABOUT EVENTS" })],
        });
        await postBatch(server.url, key.key, {
          events: [sampleEvent(7, { starts_at: inDays(4), title: "Speaking about events" })],
        });
        const [{ n }] = await server.service.deps.db.sql`
          SELECT count(*)::int AS n FROM event_signals s JOIN api_keys k
            ON k.contributor_id = s.contributor_id WHERE k.id = ${key.id}`;
        assert.equal(n, 0);
      });
    } finally {
      await server.close();
    }
  });
}
