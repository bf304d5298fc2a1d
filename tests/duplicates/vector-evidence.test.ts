/**
 * Vectors as evidence: two trusted contributors' listings whose titles share no word, in the same
 * place on the same days, are grouped once both have vectors this close, by the same detection
 * (its links, its groups); not when the vectors differ, not for an untrusted key's listing (never
 * in AI search), and re-detection under new rules keeps the group. PostgreSQL here has no
 * pgvector: there, detection after embedding finds nothing to read and changes nothing.
 */
import assert from "node:assert/strict";
import type { Sql } from "postgres";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, startTestApp, type TestServer } from "../../dev-support/test-server.ts";
import { saveEmbeddings } from "../../server/db/embeddings.ts";
import { detectEmbedded } from "../../server/duplicates/detect-duplicates.ts";
import { EMBEDDING_TEXT_VERSION } from "../../server/embeddings/embedding-text.ts";
import {
  DUPLICATE_RULES_VERSION,
  redetectUnderCurrentRules,
} from "../../server/duplicates/rules-version.ts";
import { matchFactsOf, type MatchSource } from "../../server/duplicates/match-facts.ts";
import { matchListings, VECTOR_SAME } from "../../server/duplicates/matcher.ts";
import { get, postEvents } from "../ingest/support/http.ts";

const day = { starts_at: "2031-06-12T09:00:00Z", ends_at: "2031-06-13T17:00:00Z" };
const place = { city: "Leipzig", country: "Germany" };
// Two names of one gathering that share no word, and a third event there the same days.
const alices = {
  external_id: "oss-days",
  platform: "other",
  source_url: "https://oss-days.example.org/",
  title: "Open Source Days",
  ...day,
  ...place,
};
const bobs = {
  external_id: "991",
  platform: "meetup",
  source_url: "https://www.meetup.com/leipzig-foss/events/991/",
  title: "FOSS Weekend Leipzig",
  ...day,
  ...place,
};
const carols = {
  external_id: "ml-summit",
  platform: "other",
  source_url: "https://ml.example.org/",
  title: "Machine Learning Summit",
  ...day,
  ...place,
};

/** A unit vector of the model's size along `axis`, bent towards `other` by `share`. */
function unit(dimensions: number, axis: number, other?: { axis: number; share: number }) {
  const v = new Array(dimensions).fill(0);
  v[axis] = other ? Math.sqrt(1 - other.share ** 2) : 1;
  if (other) v[other.axis] = other.share;
  return v;
}

async function decide(server: TestServer, keyId: string, decision: "trust" | "untrust") {
  const res = await server.fetch(`/api/v1/admin/keys/${keyId}/${decision}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${server.adminKey}` },
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
}

async function trustedKey(server: TestServer, contributor: string, trusted = true) {
  const key = await createApiKey(server, { contributor, rate_limit_per_minute: 10_000 });
  if (trusted) await decide(server, key.id, "trust");
  return key;
}

/** Stores `vectors` (by external id) as the worker would, from each event's current content. */
async function storeVectors(server: TestServer, vectors: Record<string, number[]>) {
  const { sql } = server.service.deps.db;
  const rows = await sql<{ id: string; external_id: string; content_hash: string }[]>`
    SELECT id, external_id, content_hash FROM events
    WHERE external_id = ANY(${Object.keys(vectors)})`;
  await saveEmbeddings(sql, {
    worker: "test",
    model: server.service.deps.ai.provider.model,
    textVersion: EMBEDDING_TEXT_VERSION,
    items: rows.map((r) => ({
      eventId: r.id,
      contentHash: r.content_hash,
      textHash: "test",
      vector: vectors[r.external_id],
    })),
  });
  return rows.map((r) => r.id);
}

async function groupsOf(server: TestServer): Promise<Map<string, string[]>> {
  const reply = await get(server.url, "/api/v1/events?from=2031-01-01&collapse=false&limit=100");
  assert.equal(reply.status, 200);
  // deno-lint-ignore no-explicit-any
  const byId = new Map<string, string>(reply.body.data.map((e: any) => [e.id, e.external_id]));
  return new Map(
    // deno-lint-ignore no-explicit-any
    reply.body.data.map((e: any) => [
      e.external_id,
      e.duplicates.map((d: { id: string }) => byId.get(d.id)).sort(),
    ]),
  );
}

async function push(server: TestServer, key: string, events: unknown[]) {
  const reply = await postEvents(server.url, key, { events });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.deepEqual(reply.body.data.errors, []);
}

for (const kind of testBackends()) {
  Deno.test(`[${kind}] listings whose titles share no word are grouped by close vectors, and only so`, async () => {
    // No worker of its own: the test stores the vectors it means.
    const server = await startTestApp(kind, { embeddingWorker: "external" });
    try {
      const { ai, db } = server.service.deps;
      const sql = db.sql as Sql;
      const available = (await ai.availability.status()).available;
      const alice = await trustedKey(server, "alice");
      await push(server, alice.key, [alices]);
      const bob = (await trustedKey(server, "bob")).key;
      await push(server, bob, [bobs]);
      await push(server, (await trustedKey(server, "carol")).key, [carols]);
      await push(server, (await trustedKey(server, "dave", false)).key, [{
        ...bobs,
        external_id: "dave-1",
        title: "Free Software Meeting",
      }]);
      // By their words, nothing here is one event.
      assert.ok([...(await groupsOf(server)).values()].every((d) => d.length === 0));
      if (!available) {
        // No vector store: detection after embedding has nothing to read and changes nothing.
        const ids = (await sql<{ id: string }[]>`SELECT id FROM events`).map((r) => r.id);
        await detectEmbedded(sql, ids);
        assert.ok([...(await groupsOf(server)).values()].every((d) => d.length === 0));
        return;
      }
      const n = ai.provider.dimensions;
      const ids = await storeVectors(server, {
        "oss-days": unit(n, 0),
        "991": unit(n, 0, { axis: 1, share: 0.3 }), // cosine 0.954 to Alice's
        "ml-summit": unit(n, 0, { axis: 2, share: 0.6 }), // cosine 0.8
        // Stored, but an untrusted key's listing is not in AI search: it is never read.
        "dave-1": unit(n, 0),
      });
      await detectEmbedded(sql, ids);
      const groups = await groupsOf(server);
      assert.deepEqual(groups.get("oss-days"), ["991"]);
      assert.deepEqual(groups.get("991"), ["oss-days"]);
      assert.deepEqual(groups.get("ml-summit"), []);
      assert.deepEqual(groups.get("dave-1"), []);

      // Re-detection under new rules (matcher and keys again, vectors read) keeps the group.
      await sql`UPDATE duplicate_rules SET version = ${DUPLICATE_RULES_VERSION - 1}`;
      const seen = await redetectUnderCurrentRules(sql, { vectors: () => Promise.resolve(true) });
      assert.equal(seen, 4);
      assert.deepEqual((await groupsOf(server)).get("oss-days"), ["991"]);

      // Alice's key untrusted, her listing leaves AI search, and the pair its vector made with it.
      await decide(server, alice.id, "untrust");
      assert.deepEqual((await groupsOf(server)).get("oss-days"), []);
      await decide(server, alice.id, "trust");
      await detectEmbedded(sql, ids);
      assert.deepEqual((await groupsOf(server)).get("oss-days"), ["991"]);

      // Moved to another week, Bob's listing leaves the group at once, and its new vector, as
      // close as before, does not bring it back: the dates disagree.
      await push(server, bob, [{
        ...bobs,
        starts_at: "2031-06-19T09:00:00Z",
        ends_at: "2031-06-20T17:00:00Z",
      }]);
      assert.deepEqual((await groupsOf(server)).get("oss-days"), []);
      await detectEmbedded(
        sql,
        await storeVectors(server, { "991": unit(n, 0, { axis: 1, share: 0.3 }) }),
      );
      assert.deepEqual((await groupsOf(server)).get("oss-days"), []);
    } finally {
      await server.close();
    }
  });
}

Deno.test("the matcher takes close vectors for a name only in the same place on the same days", () => {
  const facts = (o: Partial<MatchSource>) =>
    matchFactsOf({
      ...alices,
      id: crypto.randomUUID(),
      // Each its own page on a shared host: the address alone joins nothing.
      source_url: `https://www.meetup.com/e/${crypto.randomUUID()}`,
      latitude: null,
      longitude: null,
      is_virtual: false,
      is_hybrid: null,
      ...o,
    });
  const a = facts({});
  const b = facts({ title: bobs.title });
  const at = (similarity: number, other = b) =>
    matchListings(a, other, { vectorSimilarity: similarity }).same;
  assert.ok(!matchListings(a, b).same);
  assert.ok(at(VECTOR_SAME));
  assert.ok(!at(VECTOR_SAME - 0.01));
  // The vectors stand for the name, never for the place or the days.
  assert.ok(!at(0.99, facts({ title: bobs.title, city: "Halle" })));
  assert.ok(!at(0.99, facts({ title: bobs.title, city: null })));
  assert.ok(
    !at(0.99, facts({ title: bobs.title, starts_at: "2031-06-14T18:00:00Z", ends_at: null })),
  );
});
