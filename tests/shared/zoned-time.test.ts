import assert from "node:assert/strict";
import {
  dayBounds,
  isDateOnly,
  isIanaTimeZone,
  isStorableInstant,
  parseDate,
  parseDateTime,
  zonedWallTimeToEpochMs,
  zoneOffsetMs,
} from "../../shared/zoned-time.ts";

const instant = (text: string) => {
  const parsed = parseDateTime(text);
  if (parsed.kind !== "instant") throw new Error(`${text} gave ${JSON.stringify(parsed)}`);
  return new Date(parsed.epochMs).toISOString();
};

/** The UTC instant of a local wall time in a zone. */
const inZone = (local: string, zone: string) => {
  const parsed = parseDateTime(local);
  if (parsed.kind !== "local") throw new Error(`${local} gave ${JSON.stringify(parsed)}`);
  return new Date(zonedWallTimeToEpochMs(parsed.wall, zone)).toISOString();
};

Deno.test("parseDateTime reads Z and every offset form as the same instant", () => {
  for (
    const text of [
      "2026-05-01T09:00:00Z",
      "2026-05-01t09:00:00z",
      "2026-05-01 09:00:00Z",
      "2026-05-01T11:00:00+02:00",
      "2026-05-01T11:00:00+0200",
      "2026-05-01T11:00+02",
      "2026-05-01T04:30:00-04:30",
      "2026-05-01T09:00Z",
    ]
  ) {
    assert.equal(instant(text), "2026-05-01T09:00:00.000Z", text);
  }
});

Deno.test("parseDateTime keeps fractions of a second to the millisecond", () => {
  assert.equal(instant("2026-05-01T09:00:00.5Z"), "2026-05-01T09:00:00.500Z");
  assert.equal(instant("2026-05-01T09:00:00,125Z"), "2026-05-01T09:00:00.125Z");
  assert.equal(instant("2026-05-01T09:00:00.123456789Z"), "2026-05-01T09:00:00.123Z");
});

Deno.test("parseDateTime gives a wall time for a date-time without offset", () => {
  assert.deepEqual(parseDateTime("2026-05-01T09:15:30"), {
    kind: "local",
    wall: { year: 2026, month: 5, day: 1, hour: 9, minute: 15, second: 30, millisecond: 0 },
  });
});

Deno.test("parseDateTime says why a text is not a date-time", () => {
  assert.deepEqual(parseDateTime("2026-05-01"), { kind: "invalid", reason: "date_only" });
  for (const text of ["2026-02-29T10:00:00Z", "2026-04-31T10:00:00Z", "2026-05-01T24:00:00Z"]) {
    assert.deepEqual(parseDateTime(text), { kind: "invalid", reason: "calendar" }, text);
  }
  assert.equal(parseDateTime("2028-02-29T10:00:00Z").kind, "instant");
  for (
    const text of [
      "",
      "tomorrow",
      "2026-5-1T09:00:00Z",
      "2026-05-01T09",
      "1777626000",
      "2026-05-01T09:00:00 Z",
    ]
  ) {
    assert.deepEqual(parseDateTime(text), { kind: "invalid", reason: "format" }, text);
  }
});

Deno.test("a local time in a zone is read with the offset in force then", () => {
  assert.equal(inZone("2026-01-15T12:00:00", "Europe/Berlin"), "2026-01-15T11:00:00.000Z");
  assert.equal(inZone("2026-07-15T12:00:00", "Europe/Berlin"), "2026-07-15T10:00:00.000Z");
  assert.equal(inZone("2026-07-15T12:00:00", "UTC"), "2026-07-15T12:00:00.000Z");
  assert.equal(inZone("2026-07-15T12:00:00", "Asia/Kathmandu"), "2026-07-15T06:15:00.000Z");
  assert.equal(inZone("2026-07-15T12:00:00", "America/St_Johns"), "2026-07-15T14:30:00.000Z");
});

Deno.test("a local time is converted correctly on both sides of a DST change", () => {
  // Europe/Berlin: 2026-03-29 02:00 -> 03:00, 2026-10-25 03:00 -> 02:00.
  assert.equal(inZone("2026-03-29T01:59:59", "Europe/Berlin"), "2026-03-29T00:59:59.000Z");
  assert.equal(inZone("2026-03-29T03:00:00", "Europe/Berlin"), "2026-03-29T01:00:00.000Z");
  assert.equal(inZone("2026-10-25T01:59:59", "Europe/Berlin"), "2026-10-24T23:59:59.000Z");
  assert.equal(inZone("2026-10-25T03:00:00", "Europe/Berlin"), "2026-10-25T02:00:00.000Z");
  // America/New_York: 2026-03-08 and 2026-11-01.
  assert.equal(inZone("2026-03-08T01:59:00", "America/New_York"), "2026-03-08T06:59:00.000Z");
  assert.equal(inZone("2026-03-08T03:00:00", "America/New_York"), "2026-03-08T07:00:00.000Z");
  assert.equal(inZone("2026-11-01T03:00:00", "America/New_York"), "2026-11-01T08:00:00.000Z");
  // Southern hemisphere: Australia/Sydney leaves DST on 2026-04-05 at 03:00.
  assert.equal(inZone("2026-04-04T12:00:00", "Australia/Sydney"), "2026-04-04T01:00:00.000Z");
  assert.equal(inZone("2026-04-06T12:00:00", "Australia/Sydney"), "2026-04-06T02:00:00.000Z");
});

Deno.test("a wall time repeated by a fall-back takes its first occurrence", () => {
  assert.equal(inZone("2026-10-25T02:30:00", "Europe/Berlin"), "2026-10-25T00:30:00.000Z");
  assert.equal(inZone("2026-11-01T01:30:00", "America/New_York"), "2026-11-01T05:30:00.000Z");
});

Deno.test("a wall time skipped by a spring-forward moves forward by the gap", () => {
  assert.equal(inZone("2026-03-29T02:30:00", "Europe/Berlin"), "2026-03-29T01:30:00.000Z");
  assert.equal(inZone("2026-03-08T02:15:00", "America/New_York"), "2026-03-08T07:15:00.000Z");
});

Deno.test("a zone that skipped a whole day still resolves", () => {
  // Samoa skipped 2011-12-30 when it moved from UTC-10 to UTC+14.
  assert.equal(inZone("2011-12-29T12:00:00", "Pacific/Apia"), "2011-12-29T22:00:00.000Z");
  assert.equal(inZone("2011-12-31T12:00:00", "Pacific/Apia"), "2011-12-30T22:00:00.000Z");
});

Deno.test("zoneOffsetMs gives the zone's offset at an instant, milliseconds included", () => {
  const summer = Date.parse("2026-07-01T00:00:00.999Z");
  assert.equal(zoneOffsetMs("Europe/Berlin", summer), 2 * 3_600_000);
  assert.equal(zoneOffsetMs("America/New_York", summer), -4 * 3_600_000);
  assert.equal(zoneOffsetMs("UTC", summer), 0);
  const beforeEpoch = Date.parse("1960-07-01T00:00:00.250Z");
  assert.equal(zoneOffsetMs("UTC", beforeEpoch), 0);
});

Deno.test("isIanaTimeZone accepts zone names and refuses offsets and inventions", () => {
  for (
    const zone of [
      "Europe/Berlin",
      "America/Argentina/Buenos_Aires",
      "UTC",
      "Etc/GMT+5",
      "Asia/Kolkata",
    ]
  ) {
    assert.ok(isIanaTimeZone(zone), zone);
  }
  for (
    const zone of [
      "",
      "+02:00",
      "UTC+2",
      "Mars/Olympus",
      "Europe/Berln",
      "Europe/",
      "../etc/passwd",
      "Europe Berlin",
    ]
  ) {
    assert.ok(!isIanaTimeZone(zone), zone);
  }
});

Deno.test("parseDateTime refuses UTC offsets outside -23:59..+23:59 or with 60 minutes", () => {
  for (
    const text of [
      "2027-03-10T18:00:00+00:60",
      "2027-03-10T18:00:00+25:00",
      "2027-03-10T18:00:00-24:00",
      "2027-03-10T18:00:00+2400",
      "2027-03-10T18:00:00+0099",
      "2027-03-10T18:00+99",
    ]
  ) {
    assert.deepEqual(parseDateTime(text), { kind: "invalid", reason: "offset" }, text);
  }
  assert.equal(instant("2027-03-10T18:00:00+23:59"), "2027-03-09T18:01:00.000Z");
  assert.equal(instant("2027-03-10T18:00:00-23:59"), "2027-03-11T17:59:00.000Z");
});

Deno.test("parseDateTime reads the years 1-99 as written, refuses year 0 and year 10000", () => {
  assert.equal(instant("0050-06-01T12:00:00Z"), "0050-06-01T12:00:00.000Z");
  assert.equal(instant("0001-01-01T00:00:00Z"), "0001-01-01T00:00:00.000Z");
  assert.deepEqual(parseDateTime("0000-01-01T00:00:00Z"), { kind: "invalid", reason: "calendar" });
  // The offset carries these across the ends of what can be stored.
  assert.deepEqual(parseDateTime("0001-01-01T00:00:00+01:00"), {
    kind: "invalid",
    reason: "range",
  });
  assert.deepEqual(parseDateTime("9999-12-31T23:00:00-05:00"), {
    kind: "invalid",
    reason: "range",
  });
});

Deno.test("parseDate reads real calendar dates only", () => {
  const date = parseDate("2028-02-29");
  assert.equal(date.kind, "date");
  assert.equal(
    date.kind === "date" && new Date(date.epochMs).toISOString(),
    "2028-02-29T00:00:00.000Z",
  );
  for (const text of ["2027-02-30", "2027-02-29", "2027-04-31", "2027-13-01", "0000-01-01"]) {
    assert.deepEqual(parseDate(text), { kind: "invalid", reason: "calendar" }, text);
  }
  for (const text of ["2027-2-3", "2027-02-03T00:00:00Z", "", "20270203"]) {
    assert.deepEqual(parseDate(text), { kind: "invalid", reason: "format" }, text);
  }
});

Deno.test("isStorableInstant holds the years 0001-9999", () => {
  assert.ok(isStorableInstant(Date.parse("0001-01-01T00:00:00Z")));
  assert.ok(isStorableInstant(Date.parse("9999-12-31T23:59:59.999Z")));
  assert.ok(!isStorableInstant(Date.parse("0001-01-01T00:00:00Z") - 1));
  assert.ok(!isStorableInstant(Date.parse("9999-12-31T23:59:59.999Z") + 1));
});

Deno.test("a bare date is a day on the asker's clocks, UTC by default (docs/dates.md)", () => {
  const at = (iso: string) => Date.parse(iso);
  assert.deepEqual(dayBounds("2027-03-01", "UTC"), {
    startMs: at("2027-03-01T00:00:00Z"),
    endMs: at("2027-03-02T00:00:00Z") - 1,
  });
  // The day summer time begins in Berlin has 23 hours.
  assert.deepEqual(dayBounds("2027-03-28", "Europe/Berlin"), {
    startMs: at("2027-03-27T23:00:00Z"),
    endMs: at("2027-03-28T22:00:00Z") - 1,
  });
  assert.deepEqual(dayBounds("2028-02-28", "UTC")?.endMs, at("2028-02-29T00:00:00Z") - 1);
  assert.equal(dayBounds("2027-02-30", "UTC"), null);
  assert.equal(dayBounds("2027-3-1", "UTC"), null);
  assert.ok(isDateOnly("2027-02-30"), "the form, real or not");
  assert.ok(!isDateOnly("2027-03-01T00:00:00Z"));
});
