/**
 * The promise of trust, end to end on the real server with the real local model on PGlite:
 * untrusted events never reach semantic results; trust brings them in without the contributor
 * doing anything; edits re-embed; untrust and revocation take them out at once.
 */
import assert from "node:assert/strict";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { sampleEvent } from "../support/events.ts";
import { admin, eventually, ids, search } from "./support.ts";

const KNITTING = {
  title: "Quantum Knitting Symposium",
  description: "Wool, needles and qubits: patterns for entangled scarves.",
  topics: ["knitting", "quantum computing"],
};
const ROBOTS = {
  title: "Underwater Robotics Hackathon",
  description: "Build submarine drones that map coral reefs.",
  topics: ["robotics", "marine biology"],
};

Deno.test("[pglite] trust decides, event by event and at once, what semantic search can return", async () => {
  const server = await startTestApp("pglite");
  try {
    const key = await createApiKey(server, { contributor: "alpha" });
    await postBatch(server.url, key.key, { events: [sampleEvent(1, KNITTING)] });

    // Untrusted: not even its exact title finds it by meaning; text search does.
    await new Promise((r) => setTimeout(r, 1500));
    const semantic = await search(server, { q: KNITTING.title, mode: "semantic" });
    assert.equal(semantic.status, 200, JSON.stringify(semantic.body));
    assert.deepEqual(ids(semantic.body), []);
    const hybrid = await search(server, { q: KNITTING.title, mode: "hybrid" });
    assert.deepEqual(hybrid.body.data.map((h: { ranks: unknown }) => h.ranks), [
      { text: 1, semantic: null },
    ]);
    assert.equal(hybrid.body.data[0].event.in_ai_search, false);
    const text = await search(server, { q: "knitting", mode: "text" });
    assert.deepEqual(ids(text.body), ["evt-1"]);

    // Trust: the key's existing event enters AI search with no action by the contributor.
    const trusted = await admin(server, "POST", `/api/v1/admin/keys/${key.prefix}/trust`);
    assert.equal(trusted.status, 200);
    await eventually("the trusted event is found by meaning", async () => {
      const r = await search(server, { q: "crafting with yarn", mode: "semantic" });
      return ids(r.body)[0] === "evt-1";
    });
    const listed = await (await server.fetch(`${server.url}/api/v1/events`)).json();
    assert.equal(listed.data[0].in_ai_search, true);

    // A later event of the same key follows by itself.
    await postBatch(server.url, key.key, { events: [sampleEvent(2, ROBOTS)] });
    await eventually("the later event is found by meaning", async () => {
      const r = await search(server, { q: "autonomous submarines", mode: "semantic" });
      return ids(r.body)[0] === "evt-2";
    });

    // An edit re-embeds: the vector now stands for the new content.
    const sql = server.service.deps.db.sql;
    const before = await sql`SELECT embedding::text AS v FROM event_embeddings v
      JOIN events e ON e.id = v.event_id WHERE e.external_id = 'evt-1'`;
    await postBatch(server.url, key.key, {
      events: [sampleEvent(1, { ...ROBOTS, title: "Volcano Photography Workshop", topics: [] })],
    });
    await eventually("the edited event is found by its new meaning", async () => {
      const r = await search(server, { q: "Volcano Photography Workshop", mode: "semantic" });
      return ids(r.body)[0] === "evt-1";
    });
    const after = await sql`SELECT embedding::text AS v, v.content_hash = e.content_hash AS current
      FROM event_embeddings v JOIN events e ON e.id = v.event_id WHERE e.external_id = 'evt-1'`;
    assert.equal(after.length, 1);
    assert.equal(after[0].current, true);
    assert.notEqual(after[0].v, before[0].v);

    // Untrust: out at once, no waiting for any worker.
    await admin(server, "POST", `/api/v1/admin/keys/${key.prefix}/untrust`);
    const gone = await search(server, { q: "Volcano Photography Workshop", mode: "semantic" });
    assert.deepEqual(ids(gone.body), []);
    const one = await (await server.fetch(`${server.url}/api/v1/events?external_id=evt-2`)).json();
    assert.equal(one.data[0].in_ai_search, false);

    // Trusted again, then revoked: a revoked key's events leave AI search too.
    await admin(server, "POST", `/api/v1/admin/keys/${key.prefix}/trust`);
    await eventually("the events are back", async () => {
      const r = await search(server, { q: "autonomous submarines", mode: "semantic" });
      return ids(r.body).includes("evt-2");
    });
    await admin(server, "POST", `/api/v1/admin/keys/${key.prefix}/revoke`);
    const revoked = await search(server, { q: "autonomous submarines", mode: "semantic" });
    assert.deepEqual(ids(revoked.body), []);
  } finally {
    await server.close();
  }
});

Deno.test("[pglite] semantic results never hold an untrusted key's event beside trusted ones", async () => {
  const server = await startTestApp("pglite");
  try {
    const good = await createApiKey(server, { contributor: "good" });
    const unknown = await createApiKey(server, { contributor: "unknown" });
    await postBatch(server.url, good.key, { events: [sampleEvent(1, ROBOTS)] });
    await postBatch(server.url, unknown.key, {
      events: [sampleEvent(2, { ...ROBOTS, title: "Underwater Robotics Hackathon II" })],
    });
    await admin(server, "POST", `/api/v1/admin/keys/${good.id}/trust`);
    await eventually("the trusted event is embedded", async () => {
      const r = await search(server, { q: ROBOTS.title, mode: "semantic" });
      return ids(r.body).includes("evt-1");
    });
    for (const mode of ["semantic", "hybrid"]) {
      const r = await search(server, { q: "Underwater Robotics Hackathon II", mode });
      for (const hit of r.body.data) {
        if (hit.event.external_id === "evt-2") {
          assert.equal(hit.ranks?.semantic, null, `${mode} ranked an untrusted event by meaning`);
        }
      }
      if (mode === "semantic") assert.deepEqual(ids(r.body), ["evt-1"]);
    }
  } finally {
    await server.close();
  }
});
