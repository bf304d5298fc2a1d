/**
 * Migration 038 on a database that already told searches of events: the one-row-per-match hits
 * become one row per event with the searches' ids, pending notices and CFP reminders rows of their
 * own, and deleting a search afterwards still forgets it everywhere.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey, postBatch, startTestApp } from "../../dev-support/test-server.ts";
import { migrate } from "../../server/db/migrate.ts";
import { call } from "./support.ts";

/** What 038 replaces, as 031-034 left it. */
const BEFORE_038 = `
DROP TRIGGER alert_hits_go_with_search ON saved_searches;
DROP FUNCTION forget_saved_search_hits();
DROP TABLE alert_hits, alert_pending_new, alert_cfp_reminded;
DELETE FROM schema_migrations WHERE version = 38;
CREATE TABLE saved_search_hits (
  saved_search_id uuid NOT NULL,
  event_id uuid NOT NULL,
  starts_at timestamptz NOT NULL,
  place text NOT NULL,
  title text NOT NULL,
  source_url text NOT NULL,
  notified_at timestamptz NOT NULL DEFAULT now(),
  cfp_reminded_at timestamptz,
  notice_pending boolean NOT NULL DEFAULT false,
  PRIMARY KEY (saved_search_id, event_id)
);
CREATE FUNCTION delete_saved_search_hits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM saved_search_hits WHERE saved_search_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER saved_search_hits_go_with_search AFTER DELETE ON saved_searches
  FOR EACH ROW EXECUTE FUNCTION delete_saved_search_hits();`;

for (const kind of testBackends()) {
  Deno.test(`[${kind}] migration 038 keeps what searches were told of, pending and reminded`, async () => {
    const server = await startTestApp(kind, { alertWorker: false, embeddingWorker: "external" });
    const sql = server.service.deps.db.sql;
    try {
      const owner = await createApiKey(server, { contributor: "ann", scopes: ["searches:write"] });
      const save = async (q: string) => {
        const saved = await call(server, {
          method: "POST",
          path: "/api/v1/me/searches",
          key: owner.key,
          body: { name: q, q },
        });
        assert.equal(saved.status, 201, JSON.stringify(saved.body));
        return saved.body.data.id as string;
      };
      const [zig, rust] = [await save("zig"), await save("rust")];
      // An untrusted key's event: nothing matches it before the hits are written by hand.
      const pusher = await createApiKey(server, { contributor: "lists" });
      const events = [{
        external_id: "zr-1",
        source_url: "https://example.org/zr",
        title: "Zig and Rust Days",
        starts_at: "2031-06-01T09:00:00Z",
        city: "Lisbon",
      }];
      assert.equal((await postBatch(server.url, pusher.key, { events })).status, 200);
      const [{ id: event }] = await sql<{ id: string }[]>`SELECT id FROM events`;
      // Matching stops while the tables are as they were before 038.
      await server.service.deps.duplicates.settled();
      await server.service.deps.alerts.stop();

      await sql.unsafe(BEFORE_038);
      await sql`
        INSERT INTO saved_search_hits
          (saved_search_id, event_id, starts_at, place, title, source_url, notice_pending,
           cfp_reminded_at)
        VALUES
          (${zig}, ${event}, '2031-06-01T09:00:00Z', 'Lisbon', 'Zig and Rust Days',
           'https://example.org/zr', true, NULL),
          (${rust}, ${event}, '2031-06-01T09:00:00Z', 'Lisbon', 'Zig and Rust Days',
           'https://example.org/zr', false, now())`;

      assert.deepEqual(await migrate(sql), ["038_alert_hits_per_event.sql"]);

      const told = async () => [
        ...await sql<{ ids: string[]; place: string }[]>`
            SELECT array(SELECT unnest(saved_search_ids) ORDER BY 1)::text[] AS ids, place
            FROM alert_hits WHERE event_id = ${event}`,
      ];
      assert.deepEqual(await told(), [{ ids: [zig, rust].sort(), place: "Lisbon" }]);
      const pending = async () =>
        (await sql<{ id: string }[]>`
          SELECT saved_search_id::text AS id FROM alert_pending_new WHERE event_id = ${event}`)
          .map((r) => r.id);
      assert.deepEqual(await pending(), [zig]);
      assert.deepEqual(
        (await sql<{ id: string }[]>`
          SELECT saved_search_id::text AS id FROM alert_cfp_reminded WHERE event_id = ${event}`)
          .map((r) => r.id),
        [rust],
      );

      const gone = await call(server, {
        method: "DELETE",
        path: `/api/v1/me/searches/${zig}`,
        key: owner.key,
      });
      assert.equal(gone.status, 204);
      assert.deepEqual(await told(), [{ ids: [rust], place: "Lisbon" }]);
      assert.deepEqual(await pending(), []);
    } finally {
      await server.close();
    }
  });
}
