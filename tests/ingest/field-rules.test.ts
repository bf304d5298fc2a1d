/**
 * The field rules of docs/api.md (#field-rules; unknown fields and the report of every problem:
 * #pushing-events-what-the-endpoint-promises): trimming, NUL, URLs, platform, labels, prices,
 * counts, times and time zones, unknown and server-owned fields, and one report of every problem
 * of every item.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { PLATFORMS } from "../../shared/event-schema.ts";
import { detailsAt, listAll, postEvents, serverWithKey, validationPaths } from "./support/http.ts";
import { batches, freshEvent, REJECTED_PREFIX } from "./support/batches.ts";

for (const kind of testBackends()) {
  Deno.test(`[${kind}] the documented field rules are enforced`, async (t) => {
    const { server, key } = await serverWithKey(kind);
    const b = batches(server.url, key);
    const at = (field: string, ...rest: (string | number)[]) => ["events", 0, field, ...rest];
    try {
      await t.step("strings are stored trimmed", async () => {
        const e = await b.roundTrip({
          title: "  Rust Berlin  ",
          city: "\tBerlin\n",
          tags: ["  rust "],
          external_id: `  trim-${crypto.randomUUID()}  `,
        });
        assert.equal(e.title, "Rust Berlin");
        assert.equal(e.city, "Berlin");
        assert.deepEqual(e.tags, ["rust"]);
        assert.doesNotMatch(e.external_id, /^\s|\s$/);
      });

      await t.step("a blank optional string is stored as null", async () => {
        const e = await b.roundTrip({ description: "   ", city: "" });
        assert.equal(e.description, null);
        assert.equal(e.city, null);
      });

      await t.step("a NUL character is refused in any string field and label", async () => {
        for (const field of ["title", "external_id", "description", "city", "organiser_name"]) {
          const [message] = detailsAt(await b.rejectOne({ [field]: "bad\u0000value" }), at(field));
          assert.match(message, /NUL/);
        }
        detailsAt(await b.rejectOne({ tags: ["ok", "n\u0000ul"] }), at("tags", 1));
      });

      await t.step("a URL must be absolute http or https and at most 2048 characters", async () => {
        const refused = [
          "javascript:alert(1)",
          "JAVASCRIPT:alert(1)",
          "data:text/html,<script>alert(1)</script>",
          "/events/1",
          "events.example.org/e/1",
          "ftp://events.example.org/e/1",
          "https://",
          `https://example.org/${"a".repeat(2029)}`,
        ];
        for (const url of refused) {
          for (const field of ["source_url", "organiser_url", "cover_image_url"]) {
            const [message] = detailsAt(await b.rejectOne({ [field]: url }), at(field));
            assert.match(message, new RegExp(field));
          }
        }
        const longest = `https://example.org/${"a".repeat(2028)}`;
        assert.equal(longest.length, 2048);
        const e = await b.roundTrip({ source_url: longest, organiser_url: "HTTP://Example.org" });
        assert.equal(e.source_url, longest);
      });

      await t.step(
        "a platform outside the list is refused with a message listing them",
        async () => {
          for (const platform of ["facebook", "Luma", "", 3]) {
            const [message] = detailsAt(await b.rejectOne({ platform }), at("platform"));
            for (const p of PLATFORMS) assert.ok(message.includes(p), `${message} lacks ${p}`);
          }
          for (const platform of PLATFORMS) {
            assert.equal((await b.roundTrip({ platform })).platform, platform);
          }
        },
      );

      await t.step("labels must be non-blank strings of at most 100 characters", async () => {
        for (const field of ["categories", "tags", "topics"]) {
          detailsAt(await b.rejectOne({ [field]: ["fine", "  "] }), at(field, 1));
          detailsAt(await b.rejectOne({ [field]: ["x".repeat(101)] }), at(field, 0));
          detailsAt(await b.rejectOne({ [field]: ["fine", 7] }), at(field, 1));
          detailsAt(await b.rejectOne({ [field]: "fine" }), at(field));
        }
        const e = await b.roundTrip({ tags: ["x".repeat(100)] });
        assert.deepEqual(e.tags, ["x".repeat(100)]);
      });

      await t.step(
        "repeated labels are dropped case-insensitively, keeping the first spelling",
        async () => {
          const e = await b.roundTrip({
            tags: ["AI", "ai", "Machine Learning", " Ai ", "machine learning", "Rust"],
            topics: ["Web", "WEB"],
            categories: ["Talks", "talks"],
          });
          assert.deepEqual(e.tags, ["AI", "Machine Learning", "Rust"]);
          assert.deepEqual(e.topics, ["Web"]);
          assert.deepEqual(e.categories, ["Talks"]);
        },
      );

      await t.step("prices are at least 0 and price_min is not above price_max", async () => {
        detailsAt(await b.rejectOne({ price_min: -1 }), at("price_min"));
        detailsAt(await b.rejectOne({ price_max: -0.01 }), at("price_max"));
        const [message] = detailsAt(
          await b.rejectOne({ price_min: 30, price_max: 20 }),
          at("price_min"),
        );
        assert.match(message, /price_max/);
        const e = await b.roundTrip({ price_min: 0, price_max: 0, is_free: true });
        assert.deepEqual([e.price_min, e.price_max], [0, 0]);
        assert.equal((await b.roundTrip({ price_min: 10, price_max: 10 })).price_max, 10);
      });

      await t.step("currency must be three capital letters", async () => {
        for (const currency of ["usd", "US", "EURO", "US1", "€", 978]) {
          detailsAt(await b.rejectOne({ currency }), at("currency"));
        }
        assert.equal((await b.roundTrip({ currency: "JPY" })).currency, "JPY");
      });

      await t.step("attendee_count and capacity are whole numbers of at least 0", async () => {
        for (const field of ["attendee_count", "capacity"]) {
          for (const value of [-1, 1.5, "10", 1e12]) {
            detailsAt(await b.rejectOne({ [field]: value }), at(field));
          }
        }
        const e = await b.roundTrip({ attendee_count: 0, capacity: 2_000_000 });
        assert.deepEqual([e.attendee_count, e.capacity], [0, 2_000_000]);
      });

      await t.step("booleans must be JSON true or false", async () => {
        for (const field of ["is_virtual", "is_hybrid", "is_free", "is_sold_out"]) {
          detailsAt(await b.rejectOne({ [field]: "true" }), at(field));
          detailsAt(await b.rejectOne({ [field]: 1 }), at(field));
        }
      });

      await t.step("ends_at before starts_at is refused, and equal to it is accepted", async () => {
        const [message] = detailsAt(
          await b.rejectOne({ starts_at: "2030-06-01T18:00:00Z", ends_at: "2030-06-01T17:59:59Z" }),
          at("ends_at"),
        );
        assert.match(message, /before/);
        // The same instant written in two offsets is not "before".
        const e = await b.roundTrip({
          starts_at: "2030-06-01T18:00:00Z",
          ends_at: "2030-06-01T20:00:00+02:00",
        });
        assert.equal(e.ends_at, "2030-06-01T18:00:00.000Z");
      });

      await t.step(
        "a date without a time is refused with a message saying how to fix it",
        async () => {
          const [message] = detailsAt(
            await b.rejectOne({ starts_at: "2030-06-01" }),
            at("starts_at"),
          );
          assert.match(message, /add a time/);
          detailsAt(await b.rejectOne({ ends_at: "2030-06-02" }), at("ends_at"));
        },
      );

      await t.step("a local time without a timezone is refused, naming the fix", async () => {
        const [message] = detailsAt(
          await b.rejectOne({ starts_at: "2030-06-01T18:00:00" }),
          at("starts_at"),
        );
        assert.match(message, /offset/);
        assert.match(message, /timezone/);
      });

      await t.step("times that are not ISO 8601 date-times are refused", async () => {
        for (
          const starts_at of [
            "June 1st 2030",
            "2030-13-01T10:00:00Z",
            "2030-02-30T10:00:00Z",
            "2030-06-01T24:30:00Z",
            "1780000000",
            1780000000,
          ]
        ) {
          detailsAt(await b.rejectOne({ starts_at }), at("starts_at"));
        }
      });

      await t.step("a timezone must be a real IANA zone name", async () => {
        for (const timezone of ["Mars/Olympus_Mons", "Europe/Berln", "+02:00", "CEST+2", 1]) {
          const [message] = detailsAt(
            await b.rejectOne({ starts_at: "2030-06-01T18:00:00", timezone }),
            at("timezone"),
          );
          assert.match(message, /timezone/);
        }
        assert.equal((await b.roundTrip({ timezone: "Asia/Kolkata" })).timezone, "Asia/Kolkata");
      });

      await t.step(
        "a local time is read in its timezone, correctly across DST changes",
        async () => {
          const cases: [string, string, string][] = [
            // Europe/Berlin springs forward at 02:00 on 2026-03-29 and falls back on 2026-10-25.
            ["Europe/Berlin", "2026-03-29T01:30:00", "2026-03-29T00:30:00.000Z"],
            ["Europe/Berlin", "2026-03-29T03:30:00", "2026-03-29T01:30:00.000Z"],
            ["Europe/Berlin", "2026-10-25T01:30:00", "2026-10-24T23:30:00.000Z"],
            ["Europe/Berlin", "2026-10-25T03:30:00", "2026-10-25T02:30:00.000Z"],
            ["Europe/Berlin", "2026-07-01T09:00", "2026-07-01T07:00:00.000Z"],
            ["Europe/Berlin", "2026-12-01T09:00:00.250", "2026-12-01T08:00:00.250Z"],
            // America/New_York: 2026-03-08 forward, 2026-11-01 back.
            ["America/New_York", "2026-03-08T01:30:00", "2026-03-08T06:30:00.000Z"],
            ["America/New_York", "2026-03-08T03:30:00", "2026-03-08T07:30:00.000Z"],
            ["America/New_York", "2026-11-01T00:30:00", "2026-11-01T04:30:00.000Z"],
            ["America/New_York", "2026-11-01T02:30:00", "2026-11-01T07:30:00.000Z"],
            ["Australia/Lord_Howe", "2026-04-05T12:00:00", "2026-04-05T01:30:00.000Z"],
          ];
          for (const [timezone, local, utc] of cases) {
            const e = await b.roundTrip({ starts_at: local, timezone });
            assert.equal(e.starts_at, utc, `${local} in ${timezone}`);
            assert.equal(e.timezone, timezone);
          }
        },
      );

      await t.step("a wall time repeated by a fall-back takes its first occurrence", async () => {
        const e = await b.roundTrip({
          starts_at: "2026-10-25T02:30:00",
          timezone: "Europe/Berlin",
        });
        assert.equal(e.starts_at, "2026-10-25T00:30:00.000Z");
        const ny = await b.roundTrip({
          starts_at: "2026-11-01T01:30:00",
          timezone: "America/New_York",
        });
        assert.equal(ny.starts_at, "2026-11-01T05:30:00.000Z");
      });

      await t.step("a wall time skipped by a spring-forward moves forward by the gap", async () => {
        const e = await b.roundTrip({
          starts_at: "2026-03-29T02:30:00",
          timezone: "Europe/Berlin",
        });
        assert.equal(e.starts_at, "2026-03-29T01:30:00.000Z");
      });

      await t.step("an explicit offset wins over the timezone, which is kept", async () => {
        const e = await b.roundTrip({
          starts_at: "2030-06-01T18:00:00-07:00",
          ends_at: "2030-06-01T22:00:00",
          timezone: "America/Los_Angeles",
        });
        assert.equal(e.starts_at, "2030-06-02T01:00:00.000Z");
        assert.equal(e.ends_at, "2030-06-02T05:00:00.000Z");
        assert.equal(e.timezone, "America/Los_Angeles");
      });

      await t.step("an unknown field is refused with a path naming it", async () => {
        const reply = await b.rejectOne({ venue: "c-base", Title: "typo" });
        assert.deepEqual(
          validationPaths(reply).sort(),
          [at("Title"), at("venue")].sort(),
        );
      });

      await t.step("an unknown top-level field is refused too", async () => {
        const reply = await postEvents(server.url, key, {
          events: [freshEvent({}, true)],
          dry_run: true,
        });
        detailsAt(reply, ["dry_run"]);
      });

      await t.step("server-owned fields can never be written", async () => {
        for (
          const [field, value] of [
            ["id", crypto.randomUUID()],
            ["created_at", "2020-01-01T00:00:00Z"],
            ["updated_at", "2020-01-01T00:00:00Z"],
            ["in_ai_search", true],
            ["contributor_id", crypto.randomUUID()],
            ["trusted", true],
          ] as const
        ) {
          detailsAt(await b.rejectOne({ [field]: value }), at(field));
        }
      });

      await t.step("an event that is not an object is refused at its index", async () => {
        const reply = await b.reject([freshEvent({}, true), "event", null, [1]]);
        for (const i of [1, 2, 3]) detailsAt(reply, ["events", i]);
      });

      await t.step("details list every problem of every item, and nothing is written", async () => {
        const ids = Array.from({ length: 5 }, () => `${REJECTED_PREFIX}${crypto.randomUUID()}`);
        const reply = await b.reject([
          freshEvent({ external_id: ids[0] }, true),
          freshEvent({ external_id: ids[1], title: undefined, source_url: "javascript:x" }, true),
          freshEvent({ external_id: ids[2] }, true),
          freshEvent({
            external_id: ids[3],
            latitude: 91,
            tags: Array.from({ length: 51 }, (_, i) => `t${i}`),
            currency: "eur",
            color: "red",
          }, true),
          freshEvent({ external_id: ids[4], ends_at: "2000-01-01T00:00:00Z" }, true),
        ]);
        const key = (p: (string | number)[]) => JSON.stringify(p);
        assert.deepEqual(
          validationPaths(reply).map(key).sort(),
          [
            ["events", 1, "title"],
            ["events", 1, "source_url"],
            ["events", 3, "latitude"],
            ["events", 3, "tags"],
            ["events", 3, "currency"],
            ["events", 3, "color"],
            ["events", 4, "ends_at"],
          ].map(key).sort(),
        );
        for (const id of ids) assert.equal(await b.stored(id), undefined, `${id} was stored`);
      });

      await t.step("nothing of any refused batch was stored", async () => {
        const all = await listAll(server.url, "from=1900-01-01&limit=100");
        const leaked = all.filter((e) => e.external_id.startsWith(REJECTED_PREFIX));
        assert.deepEqual(leaked.map((e) => e.external_id), []);
      });
    } finally {
      await server.close();
    }
  });
}
