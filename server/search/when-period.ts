/**
 * Calendar phrases ("this weekend", "next month") as periods of time in a given IANA zone, so that
 * "this week" means the week of the person asking, across DST changes and year ends alike.
 */
import { zonedWallTimeToEpochMs, zoneOffsetMs } from "../../shared/zoned-time.ts";

export const WHEN_PHRASES = [
  "today",
  "this_week",
  "this_weekend",
  "next_week",
  "this_month",
  "next_month",
] as const;
export type WhenPhrase = typeof WHEN_PHRASES[number];

/** A period as UTC instants: `start` inclusive, `end` exclusive (the next period's start). */
export interface Period {
  start: Date;
  end: Date;
}

/** A calendar date; `month` 1-12. Days past the month's end roll over, as in Date.UTC. */
interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/**
 * The period `phrase` names at the instant `now` in `timeZone`. Weeks run Monday to Sunday (ISO
 * 8601); the weekend is Saturday and Sunday, the current one on a weekend day and the coming one
 * otherwise. Each boundary is local midnight (or the first moment after it where a DST change
 * skips midnight).
 */
export function whenPeriod(phrase: WhenPhrase, options: { now: Date; timeZone: string }): Period {
  const today = localDate(options.now.getTime(), options.timeZone);
  const [first, days] = periodDays(phrase, today);
  return {
    start: new Date(midnight(first, options.timeZone)),
    end: new Date(midnight(addDays(first, days), options.timeZone)),
  };
}

/** The first day of the period and how many days it lasts (months by their length). */
function periodDays(phrase: WhenPhrase, today: CalendarDate): [CalendarDate, number] {
  // 0 = Monday ... 6 = Sunday.
  const weekday = (new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay() + 6) % 7;
  const monday = addDays(today, -weekday);
  switch (phrase) {
    case "today":
      return [today, 1];
    case "this_week":
      return [monday, 7];
    case "next_week":
      return [addDays(monday, 7), 7];
    case "this_weekend":
      return [addDays(monday, 5), 2];
    case "this_month":
      return monthOf(today.year, today.month);
    case "next_month":
      return monthOf(today.year, today.month + 1);
  }
}

function monthOf(year: number, month: number): [CalendarDate, number] {
  const first = normalise({ year, month, day: 1 });
  const next = normalise({ year: first.year, month: first.month + 1, day: 1 });
  const days = Math.round(
    (Date.UTC(next.year, next.month - 1, 1) - Date.UTC(first.year, first.month - 1, 1)) /
      86_400_000,
  );
  return [first, days];
}

function localDate(epochMs: number, timeZone: string): CalendarDate {
  const local = new Date(epochMs + zoneOffsetMs(timeZone, epochMs));
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate() };
}

function addDays(date: CalendarDate, days: number): CalendarDate {
  return normalise({ ...date, day: date.day + days });
}

function normalise(date: CalendarDate): CalendarDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function midnight(date: CalendarDate, timeZone: string): number {
  return zonedWallTimeToEpochMs(
    { ...date, hour: 0, minute: 0, second: 0, millisecond: 0 },
    timeZone,
  );
}
