/** The ICS reader on real calendars, compared with what the files say. */
import assert from "node:assert/strict";
import { DATA, readFile, readText, valid } from "./support/read-file.ts";
import { resolveTimeZone } from "../../cli/readers/resolve-time-zone.ts";

const SOURCE = "https://calendar.example.org/feed";
const wide = (from: string, days = 36_500) => ({
  from: new Date(from),
  horizonDays: days,
  sourceUrl: SOURCE,
});

Deno.test("a daily series keeps COUNT, drops its EXDATEs and applies its RECURRENCE-ID override", async () => {
  const records = await readFile(
    `${DATA}ics-node-ical/daily-count-exdate-recurrence-id.ics`,
    wide("2015-01-01"),
  );
  const ids = records.map((r) => r.kind === "valid" ? r.event.external_id : r.kind);
  // COUNT=10 from 07-06, minus EXDATEs 07-08 and 07-10: 8 occurrences, 12:00 Los Angeles = 19:00Z.
  assert.equal(records.length, 8);
  assert.ok(!ids.includes("0000001#20150708T190000Z") && !ids.includes("0000001#20150710T190000Z"));
  const first = valid(records)[0];
  assert.deepEqual(
    [first.external_id, first.title, first.starts_at, first.ends_at, first.timezone],
    [
      "0000001#20150706T190000Z",
      "Treasure Hunting",
      "2015-07-06T19:00:00.000Z",
      "2015-07-06T20:00:00.000Z",
      "America/Los_Angeles",
    ],
  );
  // The override of 07-07 ends before it starts in the file itself: reported at its line, not sent.
  const override = records.find((r) => r.location.endsWith(":11"));
  assert.equal(override?.kind, "invalid");
  assert.match(
    override?.kind === "invalid" ? override.messages[0] : "",
    /ends_at .* is before starts_at/,
  );
});

Deno.test("overrides replace their occurrence by SEQUENCE and unmatched ones stand on their own", async () => {
  const records = await readFile(
    `${DATA}ics-node-ical/recurrence-sequence.ics`,
    wide("2024-01-01"),
  );
  const events = new Map(valid(records).map((e) => [e.external_id, e]));
  assert.equal(events.size, 7);
  assert.equal(
    events.get("sequence-test@node-ical.test#20240102T100000Z")?.title,
    "Moved to afternoon (SEQUENCE 3)",
  );
  assert.equal(
    events.get("sequence-test@node-ical.test#20240103T100000Z")?.starts_at,
    "2024-01-03T15:00:00.000Z",
  );
  assert.equal(events.get("sequence-test@node-ical.test#20240104T100000Z")?.title, "Daily Meeting");
  assert.equal(
    events.get("sequence-test@node-ical.test#20240104T150000Z")?.title,
    "Afternoon slot (SEQUENCE 4) - different time same day",
  );
  assert.equal(records.filter((r) => r.kind === "skipped").length, 2);
});

Deno.test("of two versions of one UID the higher SEQUENCE wins", async () => {
  const events = valid(
    await readFile(`${DATA}ics-node-ical/duplicate-uid-sequence.ics`, { sourceUrl: SOURCE }),
  );
  assert.deepEqual(events.map((e) => [e.external_id, e.starts_at]), [
    ["duplicate-sequence-test@node-ical.test", "2024-01-15T10:00:00.000Z"],
    ["newer-wins-test@node-ical.test", "2024-01-20T14:00:00.000Z"],
  ]);
});

Deno.test("Windows zone names, quoted or as display names, become IANA zones with the right UTC time", async () => {
  const events = valid(
    await readFile(`${DATA}ics-node-ical/ms_timezones.ics`, wide("2020-01-01", 400)),
  );
  const test = events.find((e) => e.title === "test")!;
  // W. Europe Standard Time, 09:00 in September (CEST, +2).
  assert.deepEqual([test.starts_at, test.timezone], ["2020-09-10T07:00:00.000Z", "Europe/Berlin"]);
  const pacific = events.find((e) => e.title === "Not the actual summary 1")!;
  assert.deepEqual([pacific.starts_at, pacific.timezone], [
    "2020-09-15T15:30:00.000Z",
    "America/Los_Angeles",
  ]);
  // The EXDATE list (six dates, folded across two lines) removes those occurrences.
  const series = events.filter((e) => e.title === "Not the actual summary either").map((e) =>
    e.external_id as string
  );
  assert.ok(series.some((id) => id.endsWith("#20200709T190000Z")));
  for (const day of ["20200721", "20200723", "20200728", "20200813", "20200825", "20200903"]) {
    assert.ok(!series.some((id) => id.includes(`#${day}`)), `${day} is an EXDATE`);
  }
  const owa =
    valid(await readFile(`${DATA}ics-node-ical/exchange-custom-tz.ics`, { sourceUrl: SOURCE }))[0];
  assert.deepEqual([owa.starts_at, owa.timezone], ["2019-04-30T02:00:00.000Z", "Asia/Bangkok"]);
  assert.equal(resolveTimeZone("(UTC-05:00) Eastern Time (US & Canada)"), "America/New_York");
  assert.equal(resolveTimeZone("(GMT+10:00) Canberra, Melbourne, Sydney"), "Australia/Sydney");
  assert.equal(resolveTimeZone("Customized Time Zone"), null);
});

Deno.test("a broken line is reported at its line and the other events still come through", async () => {
  const records = await readFile(`${DATA}ics-node-ical/ms_timezones.ics`, wide("2020-01-01", 400));
  const broken = records.filter((r) => r.kind === "invalid");
  assert.equal(broken.length, 1);
  assert.equal(broken[0].location, "ms_timezones.ics:145");
  const late = await readFile(`${DATA}ics-node-ical/large-file-with-late-error.ics`, {
    sourceUrl: SOURCE,
  });
  // Dates that do not exist are invalid records (RFC 5545 3.3.4), never rolled over to the next
  // month.
  assert.equal(valid(late).length, 394);
  const errors = late.flatMap((r) => r.kind === "invalid" ? [[r.location, r.messages[0]]] : []);
  assert.deepEqual(errors.slice(0, 2), [
    [
      "large-file-with-late-error.ics:359",
      "DTSTART 20240230T100000Z is not a date that exists: February 2024 has 29 days",
    ],
    [
      "large-file-with-late-error.ics:365",
      "DTSTART 20240231T100000Z is not a date that exists: February 2024 has 29 days",
    ],
  ]);
  assert.equal(errors.length, 7);
  assert.match(errors[6][1], /2 DTSTART/);
});

Deno.test("a zone defined only by its VTIMEZONE is honoured through DST, without an IANA name", async () => {
  const events = valid(
    await readFile(`${DATA}ics-node-ical/bad_ms_tz.ics`, wide("2020-08-01", 200)),
  );
  // "Customized Time Zone" is US Eastern rules: 10:35 is 14:35Z in summer and 15:35Z in winter.
  assert.equal(events[0].starts_at, "2020-08-25T14:35:00.000Z");
  assert.equal(events.at(-1)!.starts_at, "2020-12-17T15:35:00.000Z");
  assert.equal(events[0].timezone, undefined);
});

Deno.test("floating times use X-WR-TIMEZONE, bare dates are all-day, and UNTIL is compared in UTC", async () => {
  const events = valid(
    await readFile(`${DATA}ics-node-ical/mixed-timezone-handling.ics`, { sourceUrl: SOURCE }),
  );
  const byTitle = new Map(events.map((e) => [e.title, e]));
  assert.equal(byTitle.get("No Timezone")?.starts_at, "2002-10-28T09:20:30.000Z");
  assert.equal(byTitle.get("Inline Timezone")?.starts_at, "2002-10-28T06:20:30.000Z");
  assert.equal(byTitle.get("Date Only (Implicit)")?.starts_at, "2002-10-28T08:00:00.000Z");
  const kiev = valid(
    await readFile(`${DATA}ics-node-ical/google-calendar-kiev-tz.ics`, wide("2016-01-01")),
  );
  assert.deepEqual(kiev.map((e) => e.title), ["repeated", "bla bla", "repeated", "repeated"]);
  assert.equal(kiev.at(-1)!.starts_at, "2016-08-28T11:00:00.000Z");
});

Deno.test("recurring events are expanded only within the horizon, with stable ids", async () => {
  const path = `${DATA}ics-node-ical/yearly-recurring-unicode.ics`;
  const events = valid(
    await readFile(path, { from: new Date("2026-01-01"), horizonDays: 1000, sourceUrl: SOURCE }),
  );
  assert.deepEqual(events.map((e) => e.external_id), [
    "FA9831E7-C238-4FEC-95E5-CD46BD466421#20260714",
    "FA9831E7-C238-4FEC-95E5-CD46BD466421#20270714",
    "FA9831E7-C238-4FEC-95E5-CD46BD466421#20280714",
  ]);
  // All-day in Europe/Berlin: midnight local is 22:00Z the day before (CEST).
  assert.deepEqual([events[0].title, events[0].starts_at], [
    "Fête Nationale - Férié",
    "2026-07-13T22:00:00.000Z",
  ]);
  const none = await readFile(`${DATA}ics-node-ical/non-utc-until-ny.ics`, {
    from: new Date("2026-01-01"),
    horizonDays: 30,
  });
  assert.equal(none.length, 1);
  assert.equal(none[0].kind, "skipped");
});

Deno.test("cancelled events are skipped and reported, and events without a URL need --source-url", async () => {
  const calendar = [
    "BEGIN:VCALENDAR",
    "BEGIN:VEVENT",
    "UID:a",
    "SUMMARY:Kept",
    "DTSTART:20300101T100000Z",
    "URL:https://ex.org/a",
    "END:VEVENT",
    "BEGIN:VEVENT",
    "UID:b",
    "SUMMARY:Called off",
    "STATUS:CANCELLED",
    "DTSTART:20300102T100000Z",
    "END:VEVENT",
    "BEGIN:VEVENT",
    "UID:c",
    "SUMMARY:No link",
    "DTSTART:20300103T100000Z",
    "END:VEVENT",
    "END:VCALENDAR",
  ].join("\r\n");
  const records = await readText("ics", calendar);
  assert.deepEqual(records.map((r) => r.kind), ["valid", "skipped", "invalid"]);
  assert.match(
    records[2].kind === "invalid" ? records[2].messages[0] : "",
    /source_url is required/,
  );
  const withUrl = await readText("ics", calendar, { sourceUrl: SOURCE });
  assert.equal(valid(withUrl).length, 2);
});
