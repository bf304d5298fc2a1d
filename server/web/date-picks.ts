/** Quick picks of the date filter: this week, this weekend, this month (as UTC dates). */

export interface DatePick {
  label: string;
  from: string;
  to: string;
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}

/** The picks as of `now`: each runs from today (or the coming Saturday) to its last day. */
export function datePicks(now: Date): DatePick[] {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const weekday = today.getUTCDay(); // 0 Sunday .. 6 Saturday
  const toSunday = (7 - weekday) % 7;
  const saturday = weekday === 0 ? today : addDays(today, Math.max(0, 6 - weekday));
  const monthEnd = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 0));
  return [
    { label: "This week", from: day(today), to: day(addDays(today, toSunday)) },
    { label: "This weekend", from: day(saturday), to: day(addDays(today, toSunday)) },
    { label: "This month", from: day(today), to: day(monthEnd) },
  ];
}
