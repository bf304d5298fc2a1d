/** The day filters of a recurrence rule (BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY, BYDAY). */
import type { Rule } from "./ics-rrule.ts";

const DAY = 86_400_000;

/** The BY parts that pick days. */
export interface Filters {
  byMonth: Set<number> | null;
  byMonthDay: number[] | null;
  byYearDay: number[] | null;
  byWeekNo: number[] | null;
  plainDays: Set<number> | null;
  nthDays: { weekday: number; nth: number }[];
  /** Positions count within the month (MONTHLY, or YEARLY with BYMONTH), else the year. */
  nthInMonth: boolean;
}

/** Year, month and day of a day number (days since 1970-01-01). */
export function civil(dayNumber: number) {
  const d = new Date(dayNumber * DAY);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** The day number of a date. */
export function dayOf(year: number, month: number, day: number): number {
  return Math.floor(Date.UTC(year, month - 1, day) / DAY);
}

/** 0 = Sunday. */
export function weekdayOf(dayNumber: number): number {
  // Day 0 (1970-01-01) was a Thursday.
  return (((dayNumber + 4) % 7) + 7) % 7;
}

/** The first day of week 1 of `year`: the week (from `wkst`) holding at least four of its days. */
export function firstWeekStart(year: number, wkst: number): number {
  const jan4 = dayOf(year, 1, 4);
  return jan4 - ((weekdayOf(jan4) - wkst + 7) % 7);
}

function weekNumbers(dayNumber: number, wkst: number): { week: number; weeks: number } {
  let { year } = civil(dayNumber);
  let start = firstWeekStart(year, wkst);
  if (dayNumber < start) start = firstWeekStart(--year, wkst);
  else if (dayNumber >= firstWeekStart(year + 1, wkst)) start = firstWeekStart(++year, wkst);
  const weeks = (firstWeekStart(year + 1, wkst) - start) / 7;
  return { week: Math.floor((dayNumber - start) / 7) + 1, weeks };
}

function matchesSigned(list: number[], value: number, size: number): boolean {
  return list.some((n) => (n > 0 ? n === value : size + n + 1 === value));
}

/** Whether a day passes every day filter. */
export function dayPasses(dayNumber: number, f: Filters, wkst: number): boolean {
  const { year, month, day } = civil(dayNumber);
  if (f.byMonth && !f.byMonth.has(month)) return false;
  const monthDays = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (f.byMonthDay && !matchesSigned(f.byMonthDay, day, monthDays)) return false;
  const yearStart = dayOf(year, 1, 1);
  const yearDays = dayOf(year + 1, 1, 1) - yearStart;
  const yearDay = dayNumber - yearStart + 1;
  if (f.byYearDay && !matchesSigned(f.byYearDay, yearDay, yearDays)) return false;
  if (f.byWeekNo) {
    const { week, weeks } = weekNumbers(dayNumber, wkst);
    if (!matchesSigned(f.byWeekNo, week, weeks)) return false;
  }
  if (f.plainDays === null && f.nthDays.length === 0) return true;
  const weekday = weekdayOf(dayNumber);
  if (f.plainDays?.has(weekday)) return true;
  for (const { weekday: wanted, nth } of f.nthDays) {
    if (wanted !== weekday) continue;
    const [index, size] = f.nthInMonth ? [day, monthDays] : [yearDay, yearDays];
    const position = nth > 0
      ? Math.floor((index - 1) / 7) + 1
      : -(Math.floor((size - index) / 7) + 1);
    if (position === nth) return true;
  }
  return false;
}

/** The BY filters, with RFC 5545's defaults taken from DTSTART where the rule gives none. */
export function filtersOf(rule: Rule, start: number): Filters {
  const first = civil(Math.floor(start / DAY));
  let byMonth = rule.byMonth;
  let byMonthDay = rule.byMonthDay;
  let byDay = rule.byDay;
  if (!rule.byWeekNo && !rule.byYearDay && !rule.byMonthDay && !rule.byDay) {
    if (rule.freq === "YEARLY") {
      byMonth ??= [first.month];
      byMonthDay = [first.day];
    } else if (rule.freq === "MONTHLY") byMonthDay = [first.day];
    else if (rule.freq === "WEEKLY") {
      byDay = [{ weekday: weekdayOf(Math.floor(start / DAY)), nth: 0 }];
    }
  }
  const plain = byDay?.filter((d) => d.nth === 0).map((d) => d.weekday);
  return {
    byMonth: byMonth ? new Set(byMonth) : null,
    byMonthDay,
    byYearDay: rule.byYearDay,
    byWeekNo: rule.byWeekNo,
    plainDays: plain && plain.length > 0 ? new Set(plain) : null,
    nthDays: byDay?.filter((d) => d.nth !== 0) ?? [],
    nthInMonth: rule.freq === "MONTHLY" || (rule.freq === "YEARLY" && rule.byMonth !== null),
  };
}
