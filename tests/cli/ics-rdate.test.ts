/** RDATE and EXDATE in every value form the ICS reader may meet: dates, zoned times, periods. */
import assert from "node:assert/strict";
import { DATA, readFile, readText, valid } from "./support/read-file.ts";

const SOURCE = "https://calendar.example.org/feed";
const window = (from: string, days: number) => ({
  from: new Date(from),
  horizonDays: days,
  sourceUrl: SOURCE,
});

function times(events: Record<string, unknown>[]): string[][] {
  return events.map((
    e,
  ) => [String(e.external_id).split("#")[1], String(e.starts_at), String(e.ends_at)]);
}

Deno.test("an RDATE period is an occurrence with the period's own end", async () => {
  const records = await readFile(
    `${DATA}ics-icaljs/recur_instances.ics`,
    window("2023-11-01T00:00:00Z", 90),
  );
  assert.deepEqual(records.filter((r) => r.kind === "invalid"), []);
  assert.deepEqual(times(valid(records)), [
    // RRULE (first Tuesday, 10:00 Los Angeles) and the events' own 30 minutes.
    ["20231107T180000Z", "2023-11-07T18:00:00.000Z", "2023-11-07T18:30:00.000Z"],
    // RDATE as a UTC date-time: the series' length.
    ["20231123T090000Z", "2023-11-23T09:00:00.000Z", "2023-11-23T09:30:00.000Z"],
    // RDATE;VALUE=PERIOD:20231125T090000Z/20231125T123000Z
    ["20231125T090000Z", "2023-11-25T09:00:00.000Z", "2023-11-25T12:30:00.000Z"],
    ["20231205T180000Z", "2023-12-05T18:00:00.000Z", "2023-12-05T18:30:00.000Z"],
    ["20240102T180000Z", "2024-01-02T18:00:00.000Z", "2024-01-02T18:30:00.000Z"],
  ]);
});

Deno.test("zoned RDATE lists, EXDATEs and an override of an RDATE occurrence apply together", async () => {
  const events = valid(
    await readFile(`${DATA}ics-icaljs/recur_instances.ics`, window("2012-10-01T00:00:00Z", 160)),
  );
  assert.deepEqual(times(events).map(([key, start]) => [key, start]), [
    // Overridden by RECURRENCE-ID;TZID=America/Los_Angeles:20121002T100000 to 15:00.
    ["20121002T170000Z", "2012-10-02T22:00:00.000Z"],
    // RDATE 2012-11-05 10:00 Los Angeles, moved by RECURRENCE-ID:20121105T180000Z.
    ["20121105T180000Z", "2012-11-07T04:00:00.000Z"],
    ["20121106T180000Z", "2012-11-06T18:00:00.000Z"],
    // RDATE;TZID=America/Los_Angeles:20121110T100000,20121130T100000
    ["20121110T180000Z", "2012-11-10T18:00:00.000Z"],
    ["20121130T180000Z", "2012-11-30T18:00:00.000Z"],
    // 2012-12-04 and 2013-02-05 are EXDATEs.
    ["20130101T180000Z", "2013-01-01T18:00:00.000Z"],
    ["20130305T180000Z", "2013-03-05T18:00:00.000Z"],
  ]);
});

const SERIES = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//test//EN",
  "BEGIN:VEVENT",
  "UID:rdates",
  "DTSTAMP:20250101T000000Z",
  "SUMMARY:Meetup",
  "DTSTART;TZID=Europe/Berlin:20250303T190000",
  "DTEND;TZID=Europe/Berlin:20250303T210000",
  // No RRULE: DTSTART is the first occurrence, the RDATEs the others.
  "RDATE;TZID=America/New_York:20250310T130000",
  "RDATE;VALUE=PERIOD:20250317T180000Z/PT3H,20250324T180000Z/20250324T183000Z",
  "RDATE;TZID=Europe/Berlin;VALUE=PERIOD:20250331T190000/20250331T200000",
  "RDATE:20250407T170000Z,20250414T170000Z",
  "EXDATE;VALUE=DATE:20250414",
  "RDATE;VALUE=DATE:20250421",
  "END:VEVENT",
  "END:VCALENDAR",
  "",
].join("\r\n");

Deno.test("a series of RDATEs only starts with DTSTART and reads every RDATE form", async () => {
  const records = await readText("ics", SERIES, window("2025-01-01T00:00:00Z", 365));
  assert.deepEqual(times(valid(records)), [
    ["20250303T180000Z", "2025-03-03T18:00:00.000Z", "2025-03-03T20:00:00.000Z"],
    // 13:00 New York (EDT since 03-09) with the series' two hours.
    ["20250310T170000Z", "2025-03-10T17:00:00.000Z", "2025-03-10T19:00:00.000Z"],
    ["20250317T180000Z", "2025-03-17T18:00:00.000Z", "2025-03-17T21:00:00.000Z"],
    ["20250324T180000Z", "2025-03-24T18:00:00.000Z", "2025-03-24T18:30:00.000Z"],
    // Berlin is on summer time (+2) from 03-30.
    ["20250331T170000Z", "2025-03-31T17:00:00.000Z", "2025-03-31T18:00:00.000Z"],
    ["20250407T170000Z", "2025-04-07T17:00:00.000Z", "2025-04-07T19:00:00.000Z"],
  ]);
  // A date among date-time occurrences has no start time: reported, not guessed.
  const invalid = records.filter((r) => r.kind === "invalid");
  assert.equal(invalid.length, 1);
  assert.match(
    invalid[0].kind === "invalid" ? invalid[0].messages[0] : "",
    /RDATE 20250421 is a date but DTSTART is a date-time/,
  );
});

Deno.test("an RDATE value that is not a time is reported for its series, not a crash", async () => {
  const text = SERIES.replace("RDATE;VALUE=DATE:20250421", "RDATE;VALUE=TEXT:next week");
  const records = await readText("ics", text, window("2025-01-01T00:00:00Z", 365));
  assert.equal(records.length, 1);
  assert.equal(records[0].kind, "invalid");
  assert.match(
    records[0].kind === "invalid" ? records[0].messages[0] : "",
    /^RDATE has VALUE=TEXT; it must be a date, a date-time or a period$/,
  );
});
