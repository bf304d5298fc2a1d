/**
 * The CLI's own RRULE expansion: RFC 5545's examples, COUNT counted over real occurrences only,
 * rules that match nothing end at once, and, on rules where ical.js is right, the same dates.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import ICAL from "ical.js";
import { parseRule, type Rule } from "../../cli/readers/ics-rrule.ts";
import { expandRule, ExpansionBudget, ExpansionLimit } from "../../cli/readers/ics-recur.ts";

const DAY = 86_400_000;

function rule(text: string): Rule {
  const parsed = parseRule(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.rule;
}

function wall(stamp: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2}))?$/.exec(stamp)!;
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
}

function stamp(ms: number, isDate = false): string {
  const iso = new Date(ms).toISOString().replace(/[-:]/g, "");
  return isDate ? iso.slice(0, 8) : iso.slice(0, 15);
}

/** The occurrences of `text` from `start` (a stamp), up to `limit` of them or `days` days. */
function expand(text: string, start: string, options: { limit?: number; days?: number } = {}) {
  const startMs = wall(start);
  const isDate = start.length === 8;
  const r = rule(text);
  const untilWall = r.until
    ? Date.UTC(r.until.year, r.until.month - 1, r.until.day, r.until.hour, r.until.minute)
    : null;
  const found: string[] = [];
  for (
    const ms of expandRule(r, {
      startMs,
      isDate,
      stopAfterMs: startMs + (options.days ?? 3650) * DAY,
      skipBeforeMs: startMs,
      pastUntil: untilWall === null ? null : (t) => t > untilWall,
      budget: new ExpansionBudget(1_000_000, 10_000),
    })
  ) {
    found.push(stamp(ms, isDate));
    if (found.length >= (options.limit ?? 1000)) break;
  }
  return found;
}

Deno.test("RFC 5545 examples expand to the dates the RFC lists", () => {
  assert.deepEqual(expand("FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15", "19970902T090000"), [
    "19970902T090000",
    "19970915T090000",
    "19971002T090000",
    "19971015T090000",
    "19971102T090000",
    "19971115T090000",
    "19971202T090000",
    "19971215T090000",
    "19980102T090000",
    "19980115T090000",
  ]);
  // The last weekday of the month.
  assert.deepEqual(
    expand("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "19970930T090000", { limit: 4 }),
    ["19970930T090000", "19971031T090000", "19971128T090000", "19971231T090000"],
  );
  // Every Friday the 13th, from a DTSTART that is not one (it is then not an occurrence).
  assert.deepEqual(
    expand("FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", "19970902T090000", { limit: 4 }),
    ["19980213T090000", "19980313T090000", "19981113T090000", "19990813T090000"],
  );
  // Monday of week 20, with weeks starting on Monday.
  assert.deepEqual(expand("FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", "19970512T090000", { limit: 3 }), [
    "19970512T090000",
    "19980511T090000",
    "19990517T090000",
  ]);
  // WKST changes which days an INTERVAL=2 weekly rule takes.
  assert.deepEqual(
    expand("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO", "19970805T090000"),
    ["19970805T090000", "19970810T090000", "19970819T090000", "19970824T090000"],
  );
  assert.deepEqual(
    expand("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", "19970805T090000"),
    ["19970805T090000", "19970817T090000", "19970819T090000", "19970831T090000"],
  );
  // The 3rd instance of Tuesday, Wednesday or Thursday, for the next 3 months.
  assert.deepEqual(
    expand("FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3", "19970904T090000"),
    ["19970904T090000", "19971007T090000", "19971106T090000"],
  );
  // Every 20 minutes from 9:00 to 16:40, every day.
  assert.deepEqual(
    expand("FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16", "19970902T090000", {
      limit: 25,
    }).slice(22),
    ["19970902T162000", "19970902T164000", "19970903T090000"],
  );
  // February 29th only exists in leap years: other years have no occurrence.
  assert.deepEqual(expand("FREQ=YEARLY;COUNT=3", "20240229"), ["20240229", "20280229", "20320229"]);
});

Deno.test("COUNT counts occurrences, not candidates a BY part rejects", () => {
  const third = expand(
    "FREQ=MONTHLY;COUNT=9;BYDAY=3WE;BYMONTH=1,2,5,6,9,10,11,12",
    "20240117T180000",
  );
  assert.equal(third.length, 9);
  assert.deepEqual(third.slice(0, 4), [
    "20240117T180000",
    "20240221T180000",
    "20240515T180000",
    "20240619T180000",
  ]);
  const twentieth = expand("FREQ=MONTHLY;BYMONTHDAY=20;BYMONTH=1,9,10,11,12;COUNT=4", "20240120");
  assert.deepEqual(twentieth, ["20240120", "20240920", "20241020", "20241120"]);
});

Deno.test("rules whose BY parts exclude every candidate end at the window without a result", () => {
  // parseRule refuses these (see below); the expansion must end on them all the same.
  const impossible = (text: string): Rule => ({ ...rule(text), byMonth: [2], byMonthDay: [30] });
  const run = (r: Rule, days: number) => [
    ...expandRule(r, {
      startMs: wall("20240101T100000"),
      isDate: false,
      stopAfterMs: wall("20240101T100000") + days * DAY,
      skipBeforeMs: 0,
      pastUntil: null,
      budget: new ExpansionBudget(1_000_000, 10_000),
    }),
  ];
  for (const text of ["FREQ=DAILY", "FREQ=HOURLY", "FREQ=DAILY;COUNT=5", "FREQ=YEARLY"]) {
    assert.deepEqual(run(impossible(text), 3650), []);
  }
  assert.equal(
    (parseRule("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30") as { message: string }).message,
    "BYMONTHDAY=30 never falls in BYMONTH=2: the rule has no occurrence",
  );
  assert.ok(parseRule("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29").ok);
});

Deno.test("an expansion that needs too many steps stops with ExpansionLimit", () => {
  const r = { ...rule("FREQ=SECONDLY;COUNT=100000000"), byMonth: [2], byMonthDay: [30] };
  const run = () => [
    ...expandRule(r, {
      startMs: wall("20240101T000000"),
      isDate: false,
      stopAfterMs: wall("29990101T000000"),
      skipBeforeMs: 0,
      pastUntil: null,
      budget: new ExpansionBudget(10_000, 60_000),
    }),
  ];
  assert.throws(
    run,
    (e) => e instanceof ExpansionLimit && /more than 10,000 steps/.test(e.message),
  );
});

Deno.test("rule parts are checked: empty and impossible parts are reported, unknown ones left out", () => {
  const problem = (text: string) => {
    const parsed = parseRule(text);
    return parsed.ok ? "ok" : parsed.message;
  };
  assert.equal(problem(""), "RRULE is empty: it needs at least FREQ (such as FREQ=WEEKLY)");
  const misspelt = parseRule("FREQ=DAILY;UNTL=20240101");
  assert.ok(misspelt.ok);
  assert.equal(misspelt.rule.until, null);
  assert.deepEqual(misspelt.warnings, [
    "RRULE part UNTL is unknown (did you mean UNTIL?): left out, the rest of the rule is read",
  ]);
  const google = parseRule("RRULE:AnythingRandom;FREQ=WEEKLY;BYDAY=TU");
  assert.ok(google.ok);
  assert.deepEqual([google.rule.freq, google.rule.byDay], ["WEEKLY", [{ weekday: 2, nth: 0 }]]);
  assert.deepEqual(google.warnings, [
    'RRULE part "RRULE:AnythingRandom" is not NAME=value: left out, the rest of the rule is read',
  ]);
  assert.equal(
    problem("FREQ=DAILY;UNTIL=20240230"),
    "UNTIL=20240230 is not a date that exists (write YYYYMMDD or YYYYMMDDTHHMMSSZ)",
  );
  assert.equal(
    problem("FREQ=FORTNIGHTLY"),
    "FREQ=FORTNIGHTLY is not a frequency (SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY)",
  );
  assert.equal(
    problem("FREQ=WEEKLY;BYDAY=2MO"),
    "BYDAY with a position (such as 2MO) is only allowed with FREQ=MONTHLY or YEARLY",
  );
  assert.equal(
    problem("FREQ=MONTHLY;BYMONTHDAY=0"),
    'BYMONTHDAY=0: "0" is not a whole number from -31 to -1 or 1 to 31',
  );
  assert.equal(problem("FREQ=DAILY;COUNT=0"), "COUNT=0 is not a whole number of 1 or more");
  assert.equal(problem("FREQ=DAILY;COUNT=-1"), "COUNT=-1 is not a whole number of 1 or more");
  assert.equal(problem("FREQ=DAILY;INTERVAL=2;INTERVAL=3"), "INTERVAL is given twice");
  // Lower case, a trailing semicolon and extension parts are fine.
  assert.equal(problem("freq=weekly;byday=mo;X-NAME=1;"), "ok");
  const confluence = parseRule("FREQ=WEEKLY;COUNT=-1;UNTIL=20240301T000000Z");
  assert.ok(confluence.ok);
  assert.equal(confluence.rule.count, null);
  assert.deepEqual(confluence.warnings, [
    "COUNT=-1 is not a count; the series ends at UNTIL=20240301T000000Z",
  ]);
});

const sorted = (list: number[]) => [...list].sort((a, b) => a - b).join(",");

/**
 * Rules built only from parts ical.js expands correctly: no COUNT (it counts rejected candidates),
 * no combination that can exclude every candidate (it never returns), and lists in ascending order
 * (it yields the occurrences of BYHOUR=1,0 out of order).
 */
const safeRule = fc.oneof(
  fc.record({
    freq: fc.constant("WEEKLY"),
    interval: fc.integer({ min: 1, max: 3 }),
    days: fc.subarray(["MO", "TU", "WE", "TH", "FR", "SA", "SU"], { minLength: 1 }),
    wkst: fc.constantFrom("MO", "SU"),
  }).map((r) => `FREQ=WEEKLY;INTERVAL=${r.interval};BYDAY=${r.days.join(",")};WKST=${r.wkst}`),
  fc.record({
    interval: fc.integer({ min: 1, max: 4 }),
    monthDays: fc.uniqueArray(fc.integer({ min: 1, max: 28 }), { minLength: 1, maxLength: 3 }),
  }).map((r) => `FREQ=MONTHLY;INTERVAL=${r.interval};BYMONTHDAY=${sorted(r.monthDays)}`),
  fc.record({
    nth: fc.constantFrom(1, 2, 3, 4, -1),
    day: fc.constantFrom("MO", "TU", "WE", "TH", "FR", "SA", "SU"),
  }).map((r) => `FREQ=MONTHLY;BYDAY=${r.nth}${r.day}`),
  fc.record({
    interval: fc.integer({ min: 1, max: 5 }),
    hours: fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { minLength: 1, maxLength: 3 }),
  }).map((r) => `FREQ=DAILY;INTERVAL=${r.interval};BYHOUR=${sorted(r.hours)}`),
  fc.record({
    months: fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 3 }),
    nth: fc.constantFrom(1, 2, -1),
    day: fc.constantFrom("MO", "FR", "SU"),
  }).map((r) => `FREQ=YEARLY;BYMONTH=${sorted(r.months)};BYDAY=${r.nth}${r.day}`),
  fc.integer({ min: 1, max: 12 }).map((interval) => `FREQ=HOURLY;INTERVAL=${interval}`),
);

Deno.test("on rules ical.js expands correctly, both give the same occurrences", () => {
  fc.assert(
    fc.property(
      safeRule,
      fc.date({ min: new Date("2000-01-01"), max: new Date("2030-12-31"), noInvalidDate: true }),
      (text, date) => {
        const start = stamp(date.getTime() - (date.getTime() % 60_000));
        const ours = expand(text, start, { limit: 40, days: 20_000 });
        const time = ICAL.Time.fromData({
          year: +start.slice(0, 4),
          month: +start.slice(4, 6),
          day: +start.slice(6, 8),
          hour: +start.slice(9, 11),
          minute: +start.slice(11, 13),
          second: 0,
        });
        const iterator = ICAL.Recur.fromString(text).iterator(time);
        const theirs: string[] = [];
        for (let next = iterator.next(); next && theirs.length < 40; next = iterator.next()) {
          if (next.compare(time) >= 0) {
            theirs.push(
              next.toString().replace(/[-:]/g, "").slice(0, 15),
            );
          }
        }
        assert.deepEqual(ours, theirs, text);
      },
    ),
    { numRuns: 300 },
  );
});
