/**
 * Every real calendar in tests/fixtures, through the built CLI's validate and push --dry-run, with
 * the default window and a twenty-year one: whatever a file holds, the CLI ends with the exit code
 * its own summary calls for (0 all valid, 1 records invalid, 2 the input unreadable) and says why,
 * never with an internal error; validate and push agree; and in the twenty-year window each
 * calendar gives exactly the outcome recorded below, so a reader change that turns good events
 * bad (or bad ones good) shows here and the table is updated knowingly.
 */
import assert from "node:assert/strict";
import { DATA } from "./support/read-file.ts";
import { type CliRun, runCli } from "../../dev-support/run-cli.ts";

const FOLDERS = ["ics-icaljs", "ics-node-ical"];
const SOURCE = ["--source-url", "https://calendar.example.org/feed"];
const TWENTY_YEARS = ["--from", "2015-01-01", "--horizon", "7300"];
const WINDOWS = [[], TWENTY_YEARS];

/** Exit code, valid and invalid records of push --dry-run in the twenty-year window. */
const OUTCOMES: Record<string, [number, number, number]> = {
  "ics-icaljs/blank_line_mid.ics": [0, 0, 0],
  "ics-icaljs/daily_recur.ics": [0, 7300, 0],
  "ics-icaljs/day_long_recur_yearly.ics": [0, 5215, 0],
  "ics-icaljs/duration_instead_of_dtend.ics": [0, 1, 0],
  "ics-icaljs/google_birthday.ics": [1, 0, 1],
  "ics-icaljs/minimal.ics": [0, 1, 0],
  "ics-icaljs/multiple_rrules.ics": [0, 0, 0],
  "ics-icaljs/only_dtstart_date.ics": [0, 1, 0],
  "ics-icaljs/parserv2.ics": [0, 5214, 0],
  "ics-icaljs/rdate_exdate.ics": [1, 0, 3],
  "ics-icaljs/recur_instances.ics": [0, 242, 0],
  "ics-node-ical/Office-2012-owa.ics": [1, 0, 4],
  "ics-node-ical/badRRULE.ics": [0, 11148, 0],
  "ics-node-ical/bad_ms_tz.ics": [0, 34, 0],
  "ics-node-ical/biweekly-exdate-until.ics": [0, 929, 0],
  "ics-node-ical/daily-count-exdate-recurrence-id.ics": [1, 7, 1],
  "ics-node-ical/duplicate-uid-sequence.ics": [0, 2, 0],
  "ics-node-ical/event-with-category.ics": [1, 0, 5],
  "ics-node-ical/exchange-custom-tz.ics": [0, 1, 0],
  "ics-node-ical/festival-multiday-rrule.ics": [1, 0, 128],
  "ics-node-ical/google-calendar-kiev-tz.ics": [0, 4, 0],
  "ics-node-ical/large-file-with-late-error.ics": [1, 394, 7],
  "ics-node-ical/meetup-timed-tz.ics": [0, 1, 0],
  "ics-node-ical/mixed-timezone-handling.ics": [0, 5, 0],
  "ics-node-ical/ms_timezones.ics": [1, 137, 1],
  "ics-node-ical/multi-event-basic.ics": [1, 8, 1],
  "ics-node-ical/non-utc-until-ny.ics": [0, 14, 0],
  "ics-node-ical/recurrence-sequence.ics": [0, 7, 0],
  "ics-node-ical/test_date_duration.ics": [0, 1, 0],
  "ics-node-ical/tripit-location-escaping.ics": [1, 45, 2],
  "ics-node-ical/utf8-french-calendar.ics": [0, 0, 0],
  "ics-node-ical/whole_day_moved_over_dst_change_berlin.ics": [0, 3, 0],
  "ics-node-ical/windows-quoted-tz-rrule.ics": [0, 10, 0],
  "ics-node-ical/yearly-recurring-unicode.ics": [0, 20, 0],
};

function calendars(): string[] {
  const files: string[] = [];
  for (const folder of FOLDERS) {
    for (const entry of Deno.readDirSync(`${DATA}${folder}`)) {
      if (entry.isFile && entry.name.endsWith(".ics")) files.push(`${folder}/${entry.name}`);
    }
  }
  return files.sort();
}

/** The exit code a run's summary calls for (docs/cli.md#exit-codes). */
function codeFor(summary: { error_kind?: string; invalid: number; rejected: number }): number {
  if (summary.error_kind === "input" || summary.error_kind === "usage") return 2;
  return summary.invalid + summary.rejected > 0 ? 1 : 0;
}

function assertEndedWithReason(run: CliRun, what: string, json: boolean): void {
  const context = `${what} exited ${run.code}\nstderr: ${run.stderr.slice(0, 2000)}`;
  assert.ok(!/internal error/i.test(run.stderr), context);
  if (json) {
    const summary = run.json();
    if (run.code !== 0) assert.ok(summary.error || summary.problems.length > 0, context);
  } else if (run.code !== 0) {
    assert.match(run.stderr, /^error: \S/m, context);
  }
}

Deno.test("every fixture calendar has its outcome recorded", () => {
  assert.deepEqual(calendars(), Object.keys(OUTCOMES).sort());
});

for (const file of calendars()) {
  Deno.test(`${file} is validated and dry-run pushed with the exit code its summary calls for`, async () => {
    const path = `${DATA}${file}`;
    await Promise.all(WINDOWS.map(async (window) => {
      const label = `${file}${window.length ? ` ${window.join(" ")}` : ""}`;
      const [validated, pushed] = await Promise.all([
        runCli(["validate", path, ...SOURCE, ...window]),
        runCli(["push", path, "--dry-run", "--json", ...SOURCE, ...window]),
      ]);
      assertEndedWithReason(validated, `validate ${label}`, false);
      assertEndedWithReason(pushed, `push --dry-run --json ${label}`, true);
      const summary = pushed.json();
      assert.equal(pushed.code, codeFor(summary), `push ${label}: ${JSON.stringify(summary)}`);
      assert.equal(summary.exit_code, pushed.code, label);
      assert.equal(validated.code, pushed.code, `validate and push disagree on ${label}`);
      if (window === TWENTY_YEARS) {
        assert.deepEqual(
          [pushed.code, summary.valid, summary.invalid],
          OUTCOMES[file],
          `${label}: [exit code, valid, invalid] changed; problems: ${
            JSON.stringify(summary.problems.slice(0, 5))
          }`,
        );
      }
    }));
  });
}
