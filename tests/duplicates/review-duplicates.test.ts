/** The operators' duplicates page: groups shown, split and joined as the operator API does. */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestServer } from "../../dev-support/test-server.ts";
import { FormClient, signUp } from "../web/support/form-client.ts";

const listing = {
  external_id: "gophercon-eu",
  platform: "other",
  source_url: "https://gophercon.eu/",
  title: "GopherCon EU 2031",
  starts_at: "2031-06-16T09:00:00+02:00",
  city: "Berlin",
  country: "Germany",
};

for (const kind of testBackends()) {
  Deno.test(`[${kind}] operators see groups of duplicates and split or join them`, async () => {
    const server = await startTestServer(kind, { operatorEmails: ["op@example.org"] });
    const sql = server.service.deps.db.sql;
    try {
      const alice = await createApiKey(server, { contributor: "alice" });
      const bob = await createApiKey(server, { contributor: "bob" });
      await postBatch(server.url, alice.key, { events: [listing] });
      await postBatch(server.url, bob.key, {
        events: [{ ...listing, external_id: "m-1", platform: "meetup", title: "GopherCon Europe" }],
      });
      const op = new FormClient(server.url);
      await signUp(op, "op@example.org", "correct horse battery staple");
      await op.get("/dashboard");
      await op.post("/dashboard/operator", { operator_key: server.adminKey });
      assert.equal((await new FormClient(server.url).get("/review/duplicates")).status, 303);

      const page = await op.get("/review/duplicates");
      assert.equal(page.status, 200);
      assert.ok(page.text.includes("GopherCon Europe") && page.text.includes("Shown (canonical)"));
      const ids = await sql<{ id: string; external_id: string }[]>`
        SELECT id, external_id FROM events ORDER BY external_id`;
      const [a, m] = ids.map((r) => r.id);
      const split = await op.post("/review/duplicates/split", { id: m, other_id: a });
      assert.equal(split.status, 303);
      assert.equal((await sql`SELECT * FROM event_group_members`).length, 0);
      assert.match((await op.get("/review/duplicates?split=1")).text, /No listings are grouped/);

      const joined = await op.post("/review/duplicates/join", { id: a, other_id: m });
      assert.equal(joined.status, 303);
      const [link] = await sql`SELECT kind, decided_by FROM event_links`;
      assert.deepEqual({ ...link }, { kind: "same", decided_by: "op@example.org" });
      assert.equal((await sql`SELECT * FROM event_group_members`).length, 2);
    } finally {
      await server.close();
    }
  });
}
