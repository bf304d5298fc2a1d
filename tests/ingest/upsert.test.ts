/**
 * Upsert by (external_id, platform): counts, repeats within a batch, identical re-sends, full
 * replacement, and events owned by another contributor.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { createApiKey } from "../../dev-support/test-server.ts";
import { serverWithKey } from "./support/http.ts";
import { batches, freshEvent } from "./support/batches.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] events are upserted by external_id and platform`, async (t) => {
    const { server, key } = await serverWithKey(kind, { contributor: "alice@example.org" });
    const alice = batches(server.url, key);
    try {
      await t.step("new events count as inserted and known ones as updated", async () => {
        const a = freshEvent();
        const b = freshEvent();
        assert.deepEqual(await alice.accept([a, b]), { inserted: 2, updated: 0, errors: [] });
        const c = freshEvent();
        assert.deepEqual(
          await alice.accept([{ ...a, title: "Renamed" }, c, b]),
          { inserted: 1, updated: 2, errors: [] },
        );
        assert.equal((await alice.stored(String(a.external_id))).title, "Renamed");
      });

      await t.step(
        "the same pair twice in one batch inserts, then updates to the last",
        async () => {
          const first = freshEvent({ title: "First version", city: "Paris" });
          const second = { ...first, title: "Second version", city: undefined };
          const third = { ...second, title: "Third version", tags: ["final"] };
          const other = freshEvent();
          const data = await alice.accept([first, other, second, third]);
          assert.deepEqual(data, { inserted: 2, updated: 2, errors: [] });
          assert.equal(data.inserted + data.updated, 4);
          const stored = await alice.stored(String(first.external_id));
          assert.equal(stored.title, "Third version");
          assert.equal(stored.city, null);
          assert.deepEqual(stored.tags, ["final"]);
        },
      );

      await t.step("a known pair twice in one batch counts as two updates", async () => {
        const e = freshEvent();
        await alice.accept([e]);
        assert.deepEqual(
          await alice.accept([{ ...e, title: "A" }, { ...e, title: "B" }]),
          { inserted: 0, updated: 2, errors: [] },
        );
        assert.equal((await alice.stored(String(e.external_id))).title, "B");
      });

      await t.step(
        "an identical re-send counts as updated and leaves updated_at alone",
        async () => {
          const e = freshEvent({ description: "Unchanged", tags: ["a", "b"] });
          await alice.accept([e]);
          const before = await alice.stored(String(e.external_id));
          await new Promise((r) => setTimeout(r, 20));
          assert.deepEqual(await alice.accept([e]), { inserted: 0, updated: 1, errors: [] });
          assert.deepEqual(await alice.accept([e, e]), { inserted: 0, updated: 2, errors: [] });
          const after = await alice.stored(String(e.external_id));
          assert.deepEqual(after, before);
        },
      );

      await t.step(
        "a re-send that differs only in spelling normalised away changes nothing",
        async () => {
          const e = freshEvent({ tags: ["Rust"], starts_at: "2030-06-01T20:00:00+02:00" });
          await alice.accept([e]);
          const before = await alice.stored(String(e.external_id));
          await new Promise((r) => setTimeout(r, 20));
          const same = {
            ...e,
            title: `  ${e.title}  `,
            tags: ["Rust", "rust"],
            starts_at: "2030-06-01T18:00:00Z",
          };
          assert.deepEqual(await alice.accept([same]), { inserted: 0, updated: 1, errors: [] });
          assert.equal((await alice.stored(String(e.external_id))).updated_at, before.updated_at);
        },
      );

      await t.step("new events take ids ordered by the time they were written", async () => {
        // Version 7 ids (RFC 9562): the first 48 bits are the milliseconds since 1970.
        const millis = (id: string) => parseInt(id.replaceAll("-", "").slice(0, 12), 16);
        const first = freshEvent();
        const started = Date.now();
        await alice.accept([first]);
        await new Promise((r) => setTimeout(r, 20));
        const second = freshEvent();
        await alice.accept([second]);
        const finished = Date.now();
        const ids = [
          (await alice.stored(String(first.external_id))).id,
          (await alice.stored(String(second.external_id))).id,
        ];
        for (const id of ids) {
          assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
          // The database's clock and this process's are the same machine's.
          assert.ok(millis(id) >= started - 1000 && millis(id) <= finished + 1000, id);
        }
        assert.ok(ids[0] < ids[1], `${ids[0]} written before ${ids[1]}`);
      });

      await t.step("a changed event moves updated_at and keeps id and created_at", async () => {
        const e = freshEvent();
        await alice.accept([e]);
        const before = await alice.stored(String(e.external_id));
        await new Promise((r) => setTimeout(r, 20));
        await alice.accept([{ ...e, title: "Changed title" }]);
        const after = await alice.stored(String(e.external_id));
        assert.equal(after.id, before.id);
        assert.equal(after.created_at, before.created_at);
        assert.ok(
          after.updated_at > before.updated_at,
          `${after.updated_at} !> ${before.updated_at}`,
        );
        assert.equal(after.title, "Changed title");
      });

      await t.step(
        "an update replaces the whole event: omitted fields return to defaults",
        async () => {
          const full = freshEvent({
            platform: "luma",
            description: "Long text",
            ends_at: "2030-06-01T21:00:00Z",
            timezone: "Europe/Paris",
            city: "Paris",
            latitude: 48.85,
            is_virtual: true,
            is_hybrid: true,
            is_free: false,
            price_min: 10,
            currency: "EUR",
            is_sold_out: true,
            tags: ["x"],
            topics: ["y"],
            categories: ["z"],
            organiser_url: "https://org.example.org",
            attendee_count: 7,
          });
          await alice.accept([full]);
          const bare = {
            external_id: full.external_id,
            platform: "luma",
            source_url: full.source_url,
            title: full.title,
            starts_at: full.starts_at,
          };
          assert.deepEqual(await alice.accept([bare]), { inserted: 0, updated: 1, errors: [] });
          const e = await alice.stored(String(full.external_id), "luma");
          assert.deepEqual(
            [e.description, e.ends_at, e.timezone, e.city, e.latitude, e.is_hybrid, e.price_min],
            [null, null, null, null, null, null, null],
          );
          assert.deepEqual([e.is_virtual, e.is_free, e.currency], [false, true, "USD"]);
          assert.deepEqual([e.is_sold_out, e.organiser_url, e.attendee_count], [null, null, null]);
          assert.deepEqual([e.tags, e.topics, e.categories], [[], [], []]);
        },
      );

      await t.step("the same external_id on two platforms is two events", async () => {
        const id = `shared-${crypto.randomUUID()}`;
        const data = await alice.accept([
          freshEvent({ external_id: id, platform: "meetup", title: "On Meetup" }),
          freshEvent({ external_id: id, platform: "luma", title: "On Luma" }),
          freshEvent({ external_id: id, title: "On other" }),
        ]);
        assert.deepEqual(data, { inserted: 3, updated: 0, errors: [] });
        assert.equal((await alice.stored(id, "meetup")).title, "On Meetup");
        assert.equal((await alice.stored(id, "luma")).title, "On Luma");
        assert.equal((await alice.stored(id, "other")).title, "On other");
      });

      await t.step(
        "another key of the same contributor may update the contributor's events",
        async () => {
          const e = freshEvent();
          await alice.accept([e]);
          const second = await createApiKey(server, {
            contributor: "alice@example.org",
            name: "second key",
          });
          const data = await batches(server.url, second.key).accept([{ ...e, title: "By key 2" }]);
          assert.deepEqual(data, { inserted: 0, updated: 1, errors: [] });
          assert.equal((await alice.stored(String(e.external_id))).title, "By key 2");
        },
      );

      await t.step(
        "another contributor's pair is reported, left untouched, and the rest applied",
        async () => {
          const owned = freshEvent({ title: "Alice's event", platform: "eventbrite" });
          await alice.accept([owned]);
          const before = await alice.stored(String(owned.external_id));
          const bob = await createApiKey(server, { contributor: "bob@example.org" });
          const mine = freshEvent();
          const data = await batches(server.url, bob.key).accept([
            mine,
            { ...owned, title: "Bob's takeover" },
            { ...owned, description: "again" },
          ]);
          assert.equal(data.inserted, 1);
          assert.equal(data.updated, 0);
          assert.equal(data.errors.length, 2);
          assert.deepEqual(
            // deno-lint-ignore no-explicit-any
            data.errors.map((e: any) => ({ ...e, message: typeof e.message })),
            [1, 2].map((index) => ({
              index,
              external_id: owned.external_id,
              platform: "eventbrite",
              code: "owned_by_another_contributor",
              message: "string",
            })),
          );
          assert.match(data.errors[0].message, /another contributor/);
          assert.deepEqual(await alice.stored(String(owned.external_id)), before);
          assert.ok(await alice.stored(String(mine.external_id)));
        },
      );
    } finally {
      await server.close();
    }
  });
}
