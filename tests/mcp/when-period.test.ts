/** `when` phrases are calendar periods of the asker's zone, across DST changes and year ends. */
import assert from "node:assert/strict";
import { whenPeriod, type WhenPhrase } from "../../server/search/when-period.ts";

function period(phrase: WhenPhrase, now: string, timeZone: string): [string, string] {
  const p = whenPeriod(phrase, { now: new Date(now), timeZone });
  return [p.start.toISOString(), p.end.toISOString()];
}

Deno.test("today is local midnight to midnight, 23 hours long on the day Berlin springs forward", () => {
  // 2026-03-29: clocks go from 02:00 (+01:00) to 03:00 (+02:00).
  assert.deepEqual(period("today", "2026-03-29T10:00:00Z", "Europe/Berlin"), [
    "2026-03-28T23:00:00.000Z",
    "2026-03-29T22:00:00.000Z",
  ]);
});

Deno.test("this week runs Monday to Monday in the zone, with the offset of each end", () => {
  // Wednesday 2026-03-25; the week holds the DST change, so it is 167 hours long.
  assert.deepEqual(period("this_week", "2026-03-25T12:00:00Z", "Europe/Berlin"), [
    "2026-03-22T23:00:00.000Z",
    "2026-03-29T22:00:00.000Z",
  ]);
  // On the Sunday itself it is still the same week.
  assert.deepEqual(period("this_week", "2026-03-29T21:59:59Z", "Europe/Berlin"), [
    "2026-03-22T23:00:00.000Z",
    "2026-03-29T22:00:00.000Z",
  ]);
  // One second later it is Monday in Berlin: a new week.
  assert.equal(
    period("this_week", "2026-03-29T22:00:00Z", "Europe/Berlin")[0],
    "2026-03-29T22:00:00.000Z",
  );
});

Deno.test("next week falls back with New York in November: 169 hours", () => {
  // Thursday 2026-10-29; next week is 2 to 9 November, and clocks fall back on 1 November.
  // Monday 2 November is after the change (-05:00).
  assert.deepEqual(period("next_week", "2026-10-29T15:00:00Z", "America/New_York"), [
    "2026-11-02T05:00:00.000Z",
    "2026-11-09T05:00:00.000Z",
  ]);
  // The week of the change itself: Monday 26 October (-04:00) to Monday 2 November (-05:00).
  assert.deepEqual(period("this_week", "2026-10-29T15:00:00Z", "America/New_York"), [
    "2026-10-26T04:00:00.000Z",
    "2026-11-02T05:00:00.000Z",
  ]);
});

Deno.test("this weekend is the coming Saturday and Sunday on a weekday, the current one at the weekend", () => {
  // Friday 2026-07-03 in London (+01:00).
  assert.deepEqual(period("this_weekend", "2026-07-03T08:00:00Z", "Europe/London"), [
    "2026-07-03T23:00:00.000Z",
    "2026-07-05T23:00:00.000Z",
  ]);
  // Sunday 2026-07-05 evening: still this weekend, not the next one.
  assert.deepEqual(period("this_weekend", "2026-07-05T20:00:00Z", "Europe/London"), [
    "2026-07-03T23:00:00.000Z",
    "2026-07-05T23:00:00.000Z",
  ]);
  // Monday: the next weekend.
  assert.deepEqual(period("this_weekend", "2026-07-06T08:00:00Z", "Europe/London"), [
    "2026-07-10T23:00:00.000Z",
    "2026-07-12T23:00:00.000Z",
  ]);
});

Deno.test("the same instant is another day, week and month on either side of the date line", () => {
  const now = "2026-12-31T23:30:00Z";
  // Auckland (+13:00) is already in 2027; New York (-05:00) is still on 31 December.
  assert.deepEqual(period("today", now, "Pacific/Auckland"), [
    "2026-12-31T11:00:00.000Z",
    "2027-01-01T11:00:00.000Z",
  ]);
  assert.deepEqual(period("this_month", now, "Pacific/Auckland"), [
    "2026-12-31T11:00:00.000Z",
    "2027-01-31T11:00:00.000Z",
  ]);
  assert.deepEqual(period("this_month", now, "America/New_York"), [
    "2026-12-01T05:00:00.000Z",
    "2027-01-01T05:00:00.000Z",
  ]);
  assert.deepEqual(period("today", now, "UTC"), [
    "2026-12-31T00:00:00.000Z",
    "2027-01-01T00:00:00.000Z",
  ]);
});

Deno.test("next month and next week cross the year end", () => {
  // Thursday 31 December 2026, in Berlin (+01:00).
  const now = "2026-12-31T12:00:00Z";
  assert.deepEqual(period("next_month", now, "Europe/Berlin"), [
    "2026-12-31T23:00:00.000Z",
    "2027-01-31T23:00:00.000Z",
  ]);
  assert.deepEqual(period("this_week", now, "Europe/Berlin"), [
    "2026-12-27T23:00:00.000Z",
    "2027-01-03T23:00:00.000Z",
  ]);
  assert.deepEqual(period("next_week", now, "Europe/Berlin"), [
    "2027-01-03T23:00:00.000Z",
    "2027-01-10T23:00:00.000Z",
  ]);
  // February of a leap year has 29 days.
  assert.deepEqual(period("next_month", "2028-01-15T12:00:00Z", "UTC"), [
    "2028-02-01T00:00:00.000Z",
    "2028-03-01T00:00:00.000Z",
  ]);
});

Deno.test("where a DST change skips midnight, the day starts at the first moment after it", () => {
  // Santiago de Chile moves from 00:00 (-04:00) to 01:00 (-03:00) on Sunday 2026-09-06.
  assert.deepEqual(period("today", "2026-09-06T15:00:00Z", "America/Santiago"), [
    "2026-09-06T04:00:00.000Z",
    "2026-09-07T03:00:00.000Z",
  ]);
});
