/** The shared event rules as the server and the CLI both apply them, without a database. */
import assert from "node:assert/strict";
import { EventBatch, EventInput } from "../../shared/event-schema.ts";
import { toValidationDetails } from "../../shared/validation-details.ts";
import { sampleEvent } from "../support/events.ts";

/** The messages of an event that must be refused, by field. */
function problems(overrides: Record<string, unknown>): Record<string, string[]> {
  const parsed = EventInput.safeParse(sampleEvent(1, overrides));
  assert.ok(!parsed.success, `expected ${JSON.stringify(overrides)} to be refused`);
  const byField: Record<string, string[]> = {};
  for (const d of toValidationDetails(parsed.error.issues, { root: "event" })) {
    (byField[d.path.join(".")] ??= []).push(d.message);
  }
  return byField;
}

function accepted(overrides: Record<string, unknown>) {
  const parsed = EventInput.safeParse(sampleEvent(1, overrides));
  assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  return parsed.data;
}

Deno.test("an offset of 60 minutes or 24 hours and more is refused with a message", () => {
  for (const starts_at of ["2027-03-10T18:00:00+00:60", "2027-03-10T18:00:00+25:00"]) {
    const [message] = problems({ starts_at }).starts_at;
    assert.match(message, /offset out of range/);
    assert.match(message, /-23:59 to \+23:59/);
  }
  assert.match(problems({ ends_at: "2027-03-10T20:00:00-24:00" }).ends_at[0], /offset/);
  assert.equal(
    accepted({ starts_at: "2027-03-10T18:00:00+05:45" }).starts_at,
    "2027-03-10T12:15:00.000Z",
  );
});

Deno.test("a time that falls outside the years 0001-9999 is refused, also through a timezone", () => {
  assert.match(problems({ starts_at: "9999-12-31T23:00:00-05:00" }).starts_at[0], /years 0001/);
  const local = problems({ starts_at: "9999-12-31T23:00:00", timezone: "America/New_York" });
  assert.match(local.starts_at[0], /years 0001 to 9999/);
  assert.equal(
    accepted({ starts_at: "0999-06-01T10:00:00Z" }).starts_at,
    "0999-06-01T10:00:00.000Z",
  );
});

Deno.test("a price above 0 makes an event paid unless is_free says otherwise", () => {
  assert.equal(accepted({ price_min: 250, currency: "EUR" }).is_free, false);
  assert.equal(accepted({ price_max: 10 }).is_free, false);
  assert.equal(accepted({ price_min: 0, price_max: 0 }).is_free, true);
  assert.equal(accepted({}).is_free, true);
  assert.equal(accepted({ is_free: null, price_min: 5 }).is_free, false);
  assert.equal(accepted({ is_free: false }).is_free, false);
  assert.equal(accepted({ is_free: false, price_min: 0 }).is_free, false);
});

Deno.test("is_free true with a price above 0 is refused, saying how to fix it", () => {
  const [message] = problems({ is_free: true, price_min: 0, price_max: 250 }).is_free;
  assert.equal(
    message,
    "is_free is true but price_max is 250: set is_free to false for a paid event, or leave out the price",
  );
});

Deno.test("a number too large for JSON is refused as too large, not as 'not a number'", () => {
  const body = JSON.parse(
    '{"events": [{"external_id": "x", "source_url": "https://x.example",' +
      '"title": "T", "starts_at": "2030-01-01T10:00:00Z", "price_min": 1e400, "latitude": -1e400}]}',
  );
  const parsed = EventBatch.safeParse(body);
  assert.ok(!parsed.success);
  const details = toValidationDetails(parsed.error.issues);
  for (const field of ["price_min", "latitude"]) {
    const detail = details.find((d) => d.path.join(".") === `events.0.${field}`);
    assert.equal(
      detail?.message,
      `${field} is too large to store: send a number between -1e308 and 1e308`,
    );
  }
});

Deno.test("an impossible date says it is not a real date, without doubled punctuation", () => {
  const [message] = problems({ starts_at: "2027-02-30T10:00:00Z" }).starts_at;
  assert.match(message, /^starts_at "2027-02-30T10:00:00Z" is not a real date and time: /);
  assert.doesNotMatch(message, /\.\.|\.$/);
});

Deno.test("no message of a refused event ends with a period or repeats one", () => {
  const all = problems({
    starts_at: "2027-02-30",
    ends_at: "soon",
    timezone: "Mars/Base",
    source_url: "ftp://x",
    platform: "myspace",
    price_min: -1,
    currency: "euro",
    tags: [""],
    extra: 1,
    is_free: "yes",
    capacity: 1.5,
  });
  for (const [field, messages] of Object.entries(all)) {
    for (const message of messages) {
      assert.doesNotMatch(message, /\.\s*$|\.\./, `${field}: ${message}`);
      assert.match(message, /^[a-z_]/, `${field}: ${message}`);
    }
  }
  assert.match(all.extra[0], /^extra is not a field of an event: remove it/);
});
