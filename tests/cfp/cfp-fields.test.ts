/**
 * The call-for-papers fields (docs/api.md#calls-for-papers, docs/dates.md#a-call-for-papers):
 * stored and returned as instants, a bare date read as CFP pages mean it, the refusals with their
 * field paths, the derived status, and a changed CFP counting as a change.
 */
import assert from "node:assert/strict";
import { testBackends } from "../../dev-support/databases.ts";
import { detailsAt, serverWithKey } from "../ingest/support/http.ts";
import { batches, freshEvent } from "../ingest/support/batches.ts";

const CFP = "https://cfp.example.org/submit";
const at = (field: string) => ["events", 0, field];

for (const kind of testBackends()) {
  Deno.test(`[${kind}] CFP fields are stored, read back as instants and checked`, async (t) => {
    const { server, key } = await serverWithKey(kind);
    const b = batches(server.url, key);
    try {
      await t.step(
        "a bare closing date closes at the end of that day Anywhere on Earth",
        async () => {
          const e = await b.roundTrip({
            starts_at: "2027-03-01T09:00:00Z",
            cfp_url: CFP,
            cfp_opens_at: "2027-01-01",
            cfp_closes_at: "2027-01-15",
          });
          assert.equal(e.cfp_url, CFP);
          assert.equal(e.cfp_closes_at, "2027-01-16T11:59:59.000Z");
          // The start of January 1 on the first clocks to reach it (UTC+14).
          assert.equal(e.cfp_opens_at, "2026-12-31T10:00:00.000Z");
        },
      );

      await t.step("date-times with an offset, or local with timezone, are instants", async () => {
        const withOffset = await b.roundTrip({
          starts_at: "2027-03-01T09:00:00Z",
          cfp_url: CFP,
          cfp_closes_at: "2027-01-15T23:59:00+01:00",
        });
        assert.equal(withOffset.cfp_closes_at, "2027-01-15T22:59:00.000Z");
        const local = await b.roundTrip({
          starts_at: "2027-03-01T09:00:00",
          timezone: "America/New_York",
          cfp_url: CFP,
          cfp_closes_at: "2027-01-15T17:00:00",
        });
        assert.equal(local.cfp_closes_at, "2027-01-15T22:00:00.000Z");
      });

      await t.step("the status is open, not yet open, closed, or null without a CFP", async () => {
        const future = "2099-06-01T09:00:00Z";
        const open = await b.roundTrip({ starts_at: future, cfp_url: CFP });
        assert.equal(open.cfp_status, "open");
        const later = await b.roundTrip({
          starts_at: future,
          cfp_url: CFP,
          cfp_opens_at: "2098-01-01",
        });
        assert.equal(later.cfp_status, "not_yet_open");
        const closed = await b.roundTrip({
          starts_at: future,
          cfp_url: CFP,
          cfp_closes_at: "2020-01-15",
        });
        assert.equal(closed.cfp_status, "closed");
        const none = await b.roundTrip({ starts_at: future });
        assert.equal(none.cfp_status, null);
        assert.equal(none.cfp_url, null);
        assert.equal(none.cfp_closes_at, null);
      });

      await t.step("a CFP closing after its event ends is refused at cfp_closes_at", async () => {
        const [message] = detailsAt(
          await b.rejectOne({
            starts_at: "2027-01-10T09:00:00Z",
            ends_at: "2027-01-12T18:00:00Z",
            cfp_url: CFP,
            cfp_closes_at: "2027-01-13T00:00:00Z",
          }),
          at("cfp_closes_at"),
        );
        assert.match(message, /after the event's ends_at .*closes before its event ends/);
        // Without an end, the start is the limit; a bare date on the start day is past it.
        const [onStart] = detailsAt(
          await b.rejectOne({
            starts_at: "2027-01-15T09:00:00Z",
            cfp_url: CFP,
            cfp_closes_at: "2027-01-15",
          }),
          at("cfp_closes_at"),
        );
        assert.match(onStart, /starts_at \(2027-01-15T09:00:00Z\).*Anywhere on Earth/);
      });

      await t.step("a CFP opening after it closes is refused at cfp_opens_at", async () => {
        const [message] = detailsAt(
          await b.rejectOne({
            starts_at: "2027-03-01T09:00:00Z",
            cfp_url: CFP,
            cfp_opens_at: "2027-02-01",
            cfp_closes_at: "2027-01-15",
          }),
          at("cfp_opens_at"),
        );
        assert.match(message, /must open before it closes/);
      });

      await t.step("a CFP date without cfp_url is refused, saying to add it", async () => {
        for (const field of ["cfp_opens_at", "cfp_closes_at"]) {
          const [message] = detailsAt(
            await b.rejectOne({ starts_at: "2027-03-01T09:00:00Z", [field]: "2027-01-15" }),
            at(field),
          );
          assert.match(message, /without cfp_url: add the call for papers' page as cfp_url/);
        }
      });

      await t.step("unreadable CFP values are refused with the fix", async () => {
        const cases: [string, unknown, RegExp][] = [
          ["cfp_url", "javascript:alert(1)", /absolute http/],
          ["cfp_url", `https://example.org/${"a".repeat(2029)}`, /limit is 2048/],
          ["cfp_closes_at", "2027-02-30", /not a real date/],
          ["cfp_closes_at", "next friday", /not an ISO 8601 date-time/],
          ["cfp_closes_at", "2027-01-15T17:00:00", /no UTC offset: .*timezone/],
          ["cfp_opens_at", "2027-01-15T17:00:00+25:00", /offset out of range/],
        ];
        for (const [field, value, pattern] of cases) {
          const [message] = detailsAt(
            await b.rejectOne({ starts_at: "2027-03-01T09:00:00Z", cfp_url: CFP, [field]: value }),
            at(field),
          );
          assert.match(message, pattern, `${field}=${value}`);
        }
      });

      await t.step("a changed CFP counts as a change; an identical re-send does not", async () => {
        const event = freshEvent({ starts_at: "2027-03-01T09:00:00Z", cfp_url: CFP });
        await b.accept([event]);
        const first = await b.stored(String(event.external_id));
        await b.accept([event]);
        assert.equal((await b.stored(String(event.external_id))).updated_at, first.updated_at);
        await new Promise((r) => setTimeout(r, 5));
        await b.accept([{ ...event, cfp_closes_at: "2027-01-15" }]);
        const changed = await b.stored(String(event.external_id));
        assert.equal(changed.cfp_closes_at, "2027-01-16T11:59:59.000Z");
        assert.notEqual(changed.updated_at, first.updated_at);
        // A full replacement: leaving the CFP out removes it.
        await b.accept([{ ...event, cfp_url: undefined }]);
        assert.equal((await b.stored(String(event.external_id))).cfp_url, null);
      });
    } finally {
      await server.close();
    }
  });
}
