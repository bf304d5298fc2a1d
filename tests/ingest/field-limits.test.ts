/**
 * The spec's field table: required fields, every limit at its boundary and one past it, the batch
 * size, and every default. Nothing of a refused batch is ever stored.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { detailsAt, listAll, serverWithKey, validationPaths } from "./support/http.ts";
import { batches, freshEvent, REJECTED_PREFIX } from "./support/batches.ts";

const REQUIRED = ["external_id", "source_url", "title", "starts_at"] as const;

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the spec's field table is enforced`, async (t) => {
    const { server, key } = await serverWithKey(kind);
    const b = batches(server.url, key);
    try {
      await t.step("each required field, when missing, is reported by name", async () => {
        const events = REQUIRED.map((field) => {
          const e = freshEvent({}, true);
          delete e[field];
          return e;
        });
        const reply = await b.reject(events);
        REQUIRED.forEach((field, i) => {
          const [message] = detailsAt(reply, ["events", i, field]);
          assert.match(message, new RegExp(`${field} is required`));
        });
        assert.equal(reply.body.details.length, REQUIRED.length);
      });

      await t.step("an event missing every required field gets one detail per field", async () => {
        const reply = await b.reject([{ description: "nothing else" }]);
        assert.deepEqual(
          validationPaths(reply).sort(),
          REQUIRED.map((f) => ["events", 0, f]).sort(),
        );
      });

      await t.step("a required string that is blank after trimming is invalid", async () => {
        for (const field of ["external_id", "title", "source_url", "starts_at"]) {
          const [message] = detailsAt(await b.rejectOne({ [field]: "   " }), ["events", 0, field]);
          assert.match(message, /must not be empty|required/);
        }
      });

      await t.step("title may hold 500 characters but not 501", async () => {
        const ok = await b.roundTrip({ title: "t".repeat(500) });
        assert.equal(ok.title.length, 500);
        const [message] = detailsAt(await b.rejectOne({ title: "t".repeat(501) }), [
          "events",
          0,
          "title",
        ]);
        assert.match(message, /501.*500/);
      });

      await t.step("description may hold 10000 characters but not 10001", async () => {
        const ok = await b.roundTrip({ description: "d".repeat(10_000) });
        assert.equal(ok.description.length, 10_000);
        detailsAt(await b.rejectOne({ description: "d".repeat(10_001) }), [
          "events",
          0,
          "description",
        ]);
      });

      await t.step("limits count characters, so a title of 500 emoji is accepted", async () => {
        const ok = await b.roundTrip({ title: "🎉".repeat(500) });
        assert.equal([...ok.title].length, 500);
        detailsAt(await b.rejectOne({ title: "🎉".repeat(501) }), ["events", 0, "title"]);
      });

      for (const [field, max] of [["categories", 20], ["tags", 50], ["topics", 20]] as const) {
        await t.step(`${field} may hold ${max} items but not ${max + 1}`, async () => {
          const items = (n: number) => Array.from({ length: n }, (_, i) => `${field}-${i}`);
          const ok = await b.roundTrip({ [field]: items(max) });
          assert.deepEqual(ok[field], items(max));
          const [message] = detailsAt(await b.rejectOne({ [field]: items(max + 1) }), [
            "events",
            0,
            field,
          ]);
          assert.match(message, new RegExp(`at most ${max}`));
        });
      }

      await t.step("latitude and longitude are accepted at the ends of their ranges", async () => {
        for (const [latitude, longitude] of [[-90, -180], [90, 180], [0, 0]]) {
          const ok = await b.roundTrip({ latitude, longitude });
          assert.equal(ok.latitude, latitude);
          assert.equal(ok.longitude, longitude);
        }
      });

      await t.step("latitude and longitude just past their ranges are refused", async () => {
        for (const latitude of [-90.000001, 90.000001]) {
          detailsAt(await b.rejectOne({ latitude }), ["events", 0, "latitude"]);
        }
        for (const longitude of [-180.000001, 180.000001]) {
          detailsAt(await b.rejectOne({ longitude }), ["events", 0, "longitude"]);
        }
        for (const value of ["45", true, [1]]) {
          detailsAt(await b.rejectOne({ latitude: value }), ["events", 0, "latitude"]);
        }
      });

      await t.step("a batch of 1 and a batch of 100 events are accepted", async () => {
        assert.deepEqual(await b.accept([freshEvent()]), { inserted: 1, updated: 0, errors: [] });
        const hundred = Array.from({ length: 100 }, () => freshEvent());
        assert.deepEqual(await b.accept(hundred), { inserted: 100, updated: 0, errors: [] });
      });

      await t.step("a batch of 0 or of 101 events is refused at path events", async () => {
        const empty = await b.reject([]);
        assert.match(detailsAt(empty, ["events"])[0], /at least 1/);
        const over = await b.reject(Array.from({ length: 101 }, () => freshEvent({}, true)));
        assert.match(detailsAt(over, ["events"])[0], /at most 100/);
      });

      await t.step(
        "every default is applied to an event that gives only the required fields",
        async () => {
          const e = await b.roundTrip({});
          assert.equal(e.platform, "other");
          assert.equal(e.is_virtual, false);
          assert.equal(e.is_free, true);
          assert.equal(e.currency, "USD");
          assert.equal(e.is_hybrid, null);
          assert.deepEqual([e.categories, e.tags, e.topics], [[], [], []]);
          for (
            const field of [
              "description",
              "ends_at",
              "timezone",
              "venue_name",
              "city",
              "country",
              "latitude",
              "longitude",
              "price_min",
              "price_max",
              "is_sold_out",
              "event_type",
              "organiser_name",
              "organiser_url",
              "cover_image_url",
              "attendee_count",
              "capacity",
            ]
          ) {
            assert.equal(e[field], null, `${field} should default to null`);
          }
          assert.equal(e.in_ai_search, false);
          assert.match(e.id, /^[0-9a-f-]{36}$/);
        },
      );

      await t.step("null for a field with a default gives the default", async () => {
        const e = await b.roundTrip({
          platform: null,
          is_virtual: null,
          is_free: null,
          currency: null,
          tags: null,
        });
        assert.deepEqual(
          [e.platform, e.is_virtual, e.is_free, e.currency, e.tags],
          ["other", false, true, "USD", []],
        );
      });

      await t.step("every field given is stored as sent", async () => {
        const e = await b.roundTrip({
          platform: "meetup",
          description: "All about Deno",
          ends_at: "2030-06-01T20:00:00Z",
          timezone: "Europe/Berlin",
          venue_name: "c-base",
          city: "Berlin",
          country: "Germany",
          latitude: 52.5130,
          longitude: 13.4200,
          is_virtual: true,
          is_hybrid: true,
          is_free: false,
          price_min: 5,
          price_max: 25.5,
          currency: "EUR",
          is_sold_out: false,
          event_type: "meetup",
          categories: ["Software"],
          tags: ["deno", "typescript"],
          topics: ["runtimes"],
          organiser_name: "Berlin.js",
          organiser_url: "https://berlinjs.example.org/",
          cover_image_url: "https://img.example.org/cover.png",
          attendee_count: 42,
          capacity: 120,
        });
        assert.deepEqual(
          {
            platform: e.platform,
            ends_at: e.ends_at,
            timezone: e.timezone,
            latitude: e.latitude,
            is_hybrid: e.is_hybrid,
            is_free: e.is_free,
            price_max: e.price_max,
            currency: e.currency,
            is_sold_out: e.is_sold_out,
            tags: e.tags,
            attendee_count: e.attendee_count,
            capacity: e.capacity,
            cover_image_url: e.cover_image_url,
          },
          {
            platform: "meetup",
            ends_at: "2030-06-01T20:00:00.000Z",
            timezone: "Europe/Berlin",
            latitude: 52.513,
            is_hybrid: true,
            is_free: false,
            price_max: 25.5,
            currency: "EUR",
            is_sold_out: false,
            tags: ["deno", "typescript"],
            attendee_count: 42,
            capacity: 120,
            cover_image_url: "https://img.example.org/cover.png",
          },
        );
      });

      await t.step("nothing of any refused batch was stored", async () => {
        const all = await listAll(server.url, "from=1900-01-01&limit=100&collapse=false");
        assert.ok(all.length >= 110);
        const leaked = all.filter((e) => e.external_id.startsWith(REJECTED_PREFIX));
        assert.deepEqual(leaked.map((e) => e.external_id), []);
      });
    } finally {
      await server.close();
    }
  });
}
