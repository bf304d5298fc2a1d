/**
 * Feeds that are wrong or odd in ways real calendars are: the CLI never hangs, never crashes and
 * never invents data; a series it cannot expand is one invalid record and the rest goes through.
 */
import assert from "node:assert/strict";
import type { CheckedRecord } from "../../cli/readers/read-records.ts";
import { DATA, readFile, readText, valid } from "./support/read-file.ts";
import { runCli } from "../../dev-support/run-cli.ts";

const SOURCE = "https://calendar.example.org/feed";
const WINDOW = { from: new Date("2024-01-01T00:00:00Z"), horizonDays: 365, sourceUrl: SOURCE };

/** A calendar of the given VEVENT bodies (each a list of lines without BEGIN/END). */
function calendar(...events: string[][]): string {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//tests//EN",
    ...events.flatMap((lines) => ["BEGIN:VEVENT", ...lines, "END:VEVENT"]),
    "END:VCALENDAR",
  ].join("\r\n");
}

const FINE = ["UID:fine", "SUMMARY:Fine", "DTSTART:20240301T180000Z", "DURATION:PT2H"];

function series(uid: string, rule: string, start = "DTSTART:20240101T100000Z"): string[] {
  return [`UID:${uid}`, `SUMMARY:${uid}`, start, "DURATION:PT1H", rule];
}

function messages(records: CheckedRecord[], kind: CheckedRecord["kind"]): string[] {
  return records.flatMap((r) => {
    if (r.kind !== kind || r.kind === "valid") return [];
    return r.kind === "invalid" ? r.messages : [r.message];
  });
}

Deno.test("a rule whose BY parts match nothing is invalid at its line, not a hang", async () => {
  const text = calendar(
    series("feb30", "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"),
    series("feb30-hourly", "RRULE:FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30"),
    FINE,
  );
  const records = await readText("ics", text, WINDOW);
  assert.deepEqual(valid(records).map((e) => e.external_id), ["fine"]);
  assert.deepEqual(records.filter((r) => r.kind === "invalid").map((r) => r.location), [
    "input:4",
    "input:11",
  ]);
  assert.match(messages(records, "invalid")[0], /BYMONTHDAY=30 never falls in BYMONTH=2/);
});

Deno.test("the CLI process ends on such a feed with exit 1 and sends the rest", async () => {
  const text = calendar(
    series("feb30", "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"),
    series("every-second", "RRULE:FREQ=SECONDLY"),
    FINE,
  );
  const run = await runCli(
    ["push", "-", "--dry-run", "--json", "--from", "2024-01-01", "--source-url", SOURCE],
    { stdin: text, timeoutMs: 60_000 },
  );
  assert.equal(run.code, 1, run.stderr);
  const summary = run.json();
  assert.deepEqual([summary.valid, summary.invalid], [1, 2]);
  assert.deepEqual(summary.events.map((e: { external_id: string }) => e.external_id), ["fine"]);
});

Deno.test("FREQ=SECONDLY without an end stops at the occurrence bound, as one invalid series", async () => {
  const records = await readText("ics", calendar(series("s", "RRULE:FREQ=SECONDLY"), FINE), WINDOW);
  assert.equal(valid(records).length, 1);
  const [message] = messages(records, "invalid");
  assert.match(message, /^s: the series has more than 10,000 occurrences between 2024-01-01/);
  assert.match(message, /--horizon or --from/);
});

Deno.test("empty and broken rules are reported in plain words", async () => {
  const text = calendar(
    series("empty", "RRULE:"),
    series("no-freq", "RRULE:COUNT=3"),
    series("exrule", "EXRULE:FREQ=DAILY"),
    FINE,
  );
  const records = await readText("ics", text, WINDOW);
  assert.equal(valid(records).length, 1);
  assert.deepEqual(messages(records, "invalid"), [
    "RRULE: cannot be expanded: RRULE is empty: it needs at least FREQ (such as FREQ=WEEKLY)",
    "RRULE:COUNT=3 cannot be expanded: RRULE has no FREQ (such as FREQ=WEEKLY)",
    "EXRULE is not supported (RFC 5545 removed it): list the excluded dates as EXDATE",
  ]);
  for (const message of messages(records, "invalid")) {
    assert.doesNotMatch(message, /undefined|properties of|TypeError/);
  }
});

Deno.test("dates that do not exist are invalid records, never rolled over", async () => {
  const text = calendar(
    ["UID:a", "SUMMARY:A", "DTSTART;VALUE=DATE:20240230"],
    ["UID:b", "SUMMARY:B", "DTSTART:20240431T100000Z"],
    ["UID:c", "SUMMARY:C", "DTSTART:20240301T100000Z", "DTEND:20240301T250000Z"],
    [...series("d", "RRULE:FREQ=DAILY;COUNT=3"), "EXDATE:20240132T100000Z"],
    FINE,
  );
  const records = await readText("ics", text, WINDOW);
  assert.deepEqual(valid(records).map((e) => e.external_id), ["fine"]);
  assert.deepEqual(messages(records, "invalid"), [
    "DTSTART 20240230 is not a date that exists: February 2024 has 29 days",
    "DTSTART 20240431T100000Z is not a date that exists: April 2024 has 30 days",
    "DTEND 20240301T250000Z is not a time of day that exists (hours 00-23, minutes and seconds 00-59)",
    "EXDATE 20240132T100000Z is not a date that exists: January 2024 has 31 days",
  ]);
});

Deno.test("RANGE=THISANDFUTURE moves its occurrence and every later one by the same difference", async () => {
  const text = calendar(
    [
      "UID:weekly",
      "SUMMARY:Team sync",
      "DTSTART;TZID=Europe/Berlin:20240305T100000",
      "DTEND;TZID=Europe/Berlin:20240305T110000",
      "RRULE:FREQ=WEEKLY;COUNT=5",
    ],
    [
      "UID:weekly",
      "SUMMARY:Team sync (later)",
      "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20240319T100000",
      "DTSTART;TZID=Europe/Berlin:20240319T113000",
      "DTEND;TZID=Europe/Berlin:20240319T130000",
    ],
  );
  const events = valid(await readText("ics", text, WINDOW));
  assert.deepEqual(events.map((e) => [e.external_id, e.title, e.starts_at, e.ends_at]), [
    [
      "weekly#20240305T090000Z",
      "Team sync",
      "2024-03-05T09:00:00.000Z",
      "2024-03-05T10:00:00.000Z",
    ],
    [
      "weekly#20240312T090000Z",
      "Team sync",
      "2024-03-12T09:00:00.000Z",
      "2024-03-12T10:00:00.000Z",
    ],
    [
      "weekly#20240319T090000Z",
      "Team sync (later)",
      "2024-03-19T10:30:00.000Z",
      "2024-03-19T12:00:00.000Z",
    ],
    [
      "weekly#20240326T090000Z",
      "Team sync (later)",
      "2024-03-26T10:30:00.000Z",
      "2024-03-26T12:00:00.000Z",
    ],
    // After the change to summer time: still 11:30 to 13:00 in Berlin.
    [
      "weekly#20240402T080000Z",
      "Team sync (later)",
      "2024-04-02T09:30:00.000Z",
      "2024-04-02T11:00:00.000Z",
    ],
  ]);
});

Deno.test("COUNT counts the occurrences themselves (RFC 5545 3.3.10)", async () => {
  const text = calendar(
    series("third-wed", "RRULE:FREQ=MONTHLY;COUNT=9;BYDAY=3WE;BYMONTH=1,2,5,6,9,10,11,12"),
    series(
      "twentieth",
      "RRULE:FREQ=MONTHLY;BYMONTHDAY=20;BYMONTH=1,9,10,11,12;COUNT=4",
      "DTSTART;VALUE=DATE:20240120",
    ),
  );
  const events = valid(
    await readText("ics", text, { ...WINDOW, from: new Date("2023-12-01"), horizonDays: 800 }),
  );
  assert.equal(events.filter((e) => String(e.external_id).startsWith("third-wed#")).length, 9);
  assert.deepEqual(
    events.filter((e) => String(e.external_id).startsWith("twentieth#")).map((e) => e.external_id),
    ["twentieth#20240120", "twentieth#20240920", "twentieth#20241020", "twentieth#20241120"],
  );
});

Deno.test("a rule part nobody knows (Google's RRULE:RRULE:AnythingRandom) is left out with a warning and the rest expands", async () => {
  const text = calendar(
    series("google", "RRULE:RRULE:AnythingRandom;FREQ=WEEKLY;COUNT=3"),
    series("misspelt", "RRULE:FREQ=DAILY;COUNT=2;UNTL=20240110T000000Z"),
  );
  const records = await readText("ics", text, WINDOW);
  assert.deepEqual(valid(records).map((e) => e.external_id), [
    "google#20240101T100000Z",
    "google#20240108T100000Z",
    "google#20240115T100000Z",
    "misspelt#20240101T100000Z",
    "misspelt#20240102T100000Z",
  ]);
  assert.deepEqual(messages(records, "warning"), [
    'google: RRULE part "RRULE:AnythingRandom" is not NAME=value: left out, the rest of the rule is read',
    "misspelt: RRULE part UNTL is unknown (did you mean UNTIL?): left out, the rest of the rule is read",
  ]);
});

Deno.test("an UNTIL without Z on a series with a TZID is read in UTC, as ical.js reads it", async () => {
  // Daily at 14:00 New York (18:00Z from 10 March), UNTIL=20240315T140000: 14:00Z on the 15th,
  // before that day's 18:00Z. Read in New York time it would let the 15th in: one too many.
  const records = await readFile(`${DATA}ics-node-ical/non-utc-until-ny.ics`, {
    from: new Date("2024-02-01T00:00:00Z"),
    horizonDays: 100,
    sourceUrl: SOURCE,
  });
  const starts = valid(records).map((e) => e.starts_at);
  assert.equal(starts.length, 14);
  assert.deepEqual(starts.slice(-2), ["2024-03-13T18:00:00.000Z", "2024-03-14T18:00:00.000Z"]);
  // With the Z it is the same instant; a floating series compares wall times (RFC 5545 3.3.10).
  const text = calendar(
    series(
      "zoned",
      "RRULE:FREQ=DAILY;UNTIL=20240103T100000",
      "DTSTART;TZID=America/New_York:20240101T100000",
    ),
    series("floating", "RRULE:FREQ=DAILY;UNTIL=20240103T100000", "DTSTART:20240101T100000"),
  );
  const both = valid(await readText("ics", text, { ...WINDOW, timezone: "America/New_York" }));
  assert.deepEqual(both.map((e) => e.external_id), [
    "zoned#20240101T150000Z",
    "zoned#20240102T150000Z",
    "floating#20240101T150000Z",
    "floating#20240102T150000Z",
    "floating#20240103T150000Z",
  ]);
});

Deno.test("a RANGE=THISANDFUTURE override that matches no occurrence changes the later ones and adds none", async () => {
  const text = calendar(
    [
      "UID:weekly",
      "SUMMARY:Team sync",
      "DTSTART;TZID=Europe/Berlin:20240305T100000",
      "DTEND;TZID=Europe/Berlin:20240305T110000",
      "RRULE:FREQ=WEEKLY;COUNT=5",
    ],
    [
      "UID:weekly",
      "SUMMARY:Team sync (later)",
      // 10:30 is no occurrence of the series (they are at 10:00).
      "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20240319T103000",
      "DTSTART;TZID=Europe/Berlin:20240319T113000",
      "DTEND;TZID=Europe/Berlin:20240319T123000",
    ],
  );
  const records = await readText("ics", text, WINDOW);
  assert.deepEqual(valid(records).map((e) => [e.title, e.starts_at]), [
    ["Team sync", "2024-03-05T09:00:00.000Z"],
    ["Team sync", "2024-03-12T09:00:00.000Z"],
    ["Team sync", "2024-03-19T09:00:00.000Z"],
    ["Team sync (later)", "2024-03-26T10:00:00.000Z"],
    ["Team sync (later)", "2024-04-02T09:00:00.000Z"],
  ]);
  assert.deepEqual(messages(records, "warning"), [
    "weekly: RECURRENCE-ID;RANGE=THISANDFUTURE 20240319T093000Z matches no occurrence of the " +
    "series: it changes the later occurrences only, and is not an event of its own",
  ]);
});

Deno.test("a folded line without its leading space (Apple's calendar server) is left out, the event kept", async () => {
  const text = calendar([
    "UID:apple",
    "SUMMARY:Swift meetup",
    "DTSTART:20240301T180000Z",
    "DESCRIPTION:Talks on concurrency and",
    "the new macros",
    "LOCATION:Room 4",
  ]);
  const records = await readText("ics", text, { ...WINDOW, sourceUrl: SOURCE });
  const [event] = valid(records);
  assert.deepEqual([event.title, event.description, event.venue_name], [
    "Swift meetup",
    "Talks on concurrency and",
    "Room 4",
  ]);
  assert.deepEqual(messages(records, "warning"), [
    'apple: line "the new macros" is not a property (NAME:value) and does not start with a space, ' +
    "so it continues no line: left out (a folded line's continuation starts with a space)",
  ]);
});

Deno.test("COUNT=-1 with UNTIL (Confluence) expands up to UNTIL, with a warning", async () => {
  const text = calendar(
    series("confluence", "RRULE:FREQ=WEEKLY;COUNT=-1;UNTIL=20240122T100000Z"),
  );
  const records = await readText("ics", text, WINDOW);
  assert.deepEqual(valid(records).map((e) => e.starts_at), [
    "2024-01-01T10:00:00.000Z",
    "2024-01-08T10:00:00.000Z",
    "2024-01-15T10:00:00.000Z",
    "2024-01-22T10:00:00.000Z",
  ]);
  assert.deepEqual(messages(records, "warning"), [
    "confluence: COUNT=-1 is not a count; the series ends at UNTIL=20240122T100000Z",
  ]);
});

Deno.test("a date-time RECURRENCE-ID of an all-day series (Outlook) replaces its day", async () => {
  const text = calendar(
    [
      "UID:allday",
      "SUMMARY:Conference day",
      "DTSTART;VALUE=DATE:20240115",
      "DTEND;VALUE=DATE:20240116",
      "RRULE:FREQ=DAILY;COUNT=3",
    ],
    [
      "UID:allday",
      "SUMMARY:Conference day (moved)",
      "RECURRENCE-ID;TZID=W. Europe Standard Time:20240116T000000",
      "DTSTART;VALUE=DATE:20240120",
      "DTEND;VALUE=DATE:20240121",
    ],
  );
  const events = valid(await readText("ics", text, WINDOW));
  assert.deepEqual(events.map((e) => [e.external_id, e.title, e.starts_at]), [
    ["allday#20240115", "Conference day", "2024-01-15T00:00:00.000Z"],
    ["allday#20240116", "Conference day (moved)", "2024-01-20T00:00:00.000Z"],
    ["allday#20240117", "Conference day", "2024-01-17T00:00:00.000Z"],
  ]);
});

Deno.test("a date-only EXDATE in a timed series removes every occurrence of that day", async () => {
  const text = calendar([
    ...series("hourly", "RRULE:FREQ=HOURLY;INTERVAL=12;COUNT=6"),
    "EXDATE;VALUE=DATE:20240102",
  ]);
  const events = valid(await readText("ics", text, WINDOW));
  assert.deepEqual(events.map((e) => e.starts_at), [
    "2024-01-01T10:00:00.000Z",
    "2024-01-01T22:00:00.000Z",
    "2024-01-03T10:00:00.000Z",
    "2024-01-03T22:00:00.000Z",
  ]);
});

Deno.test("a VTIMEZONE whose rule is not yearly is not used, so it cannot hang the reader", async () => {
  const text = calendar([
    "UID:custom",
    "SUMMARY:Custom zone",
    "DTSTART;TZID=Odd Zone:20240301T100000",
  ]).replace(
    "BEGIN:VEVENT",
    [
      "BEGIN:VTIMEZONE",
      "TZID:Odd Zone",
      "BEGIN:STANDARD",
      "DTSTART:19700101T000000",
      "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
      "TZOFFSETFROM:+0100",
      "TZOFFSETTO:+0100",
      "END:STANDARD",
      "END:VTIMEZONE",
      "BEGIN:VEVENT",
    ].join("\r\n"),
  );
  const records = await readText("ics", text, WINDOW);
  assert.deepEqual(messages(records, "invalid"), [
    'DTSTART uses TZID "Odd Zone", which the calendar does not define (no VTIMEZONE) and which is not a known time zone name',
  ]);
});
