/**
 * Expands a recurrence rule (RFC 5545 3.3.10) into wall-clock start times, under a budget.
 *
 * ical.js's iterator is not used: it never returns when the BY parts exclude every candidate
 * (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30) and counts candidates BYMONTH rejects against COUNT. Here
 * every period (a year, a month, a week, a day, an hour...) is one step: its candidates are its
 * days that pass every BY filter, times the rule's times of day; BYSETPOS picks among them; only
 * occurrences that exist count. A rule that matches nothing still advances one period per step,
 * so it ends at `stopAfterMs`, and the budget ends any expansion that runs too long.
 *
 * Wall times are numbers: milliseconds of the wall-clock reading as if it were UTC (Date.UTC),
 * which makes the UTC calendar a plain calendar with no daylight-saving jumps.
 */
import process from "node:process";
import type { Frequency, Rule } from "./ics-rrule.ts";
import {
  civil,
  dayOf,
  dayPasses,
  filtersOf,
  firstWeekStart,
  weekdayOf,
} from "./ics-recur-filters.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const LAST_YEAR = 9999;

/** Thrown when an expansion reaches a bound: the series is reported, the feed goes on. */
export class ExpansionLimit extends Error {}

/**
 * CPU time this thread has used, in milliseconds. The thread's, where the runtime can tell it
 * (Deno, Node 23.9+): a process's total also counts other threads, such as test files run in
 * parallel in one process, which would spend this series' budget. Node 20 falls back to the
 * process's total; the CLI runs its readers on one thread there.
 */
const threadCpuUsage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
function cpuMs(): number {
  const { user, system } = threadCpuUsage ? threadCpuUsage.call(process) : process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Work allowed for one series: candidate steps and CPU time. CPU time, not wall-clock time, so
 * that a feed reads the same on a busy machine as on an idle one.
 */
export class ExpansionBudget {
  #steps = 0;
  readonly #deadline: number;

  constructor(readonly maxSteps: number, readonly maxMs: number) {
    this.#deadline = cpuMs() + maxMs;
  }

  /** Spends `n` steps; throws ExpansionLimit once the steps or the time are used up. */
  spend(n = 1): void {
    const before = this.#steps;
    this.#steps += n;
    if (this.#steps > this.maxSteps) {
      throw new ExpansionLimit(
        `the rule needs more than ${this.maxSteps.toLocaleString("en")} steps to expand`,
      );
    }
    // The clock is read about every thousand steps: reading it costs more than a step.
    if ((before >> 10) !== (this.#steps >> 10) && cpuMs() > this.#deadline) {
      throw new ExpansionLimit(
        `expanding the rule took more than ${this.maxMs / 1000} s of processor time`,
      );
    }
  }
}

/** Where and how far to expand. */
export interface ExpandOptions {
  /** DTSTART as a wall time; the first possible occurrence. */
  startMs: number;
  /** All-day series: one occurrence per day, times of day ignored. */
  isDate: boolean;
  /** Expansion stops at the first period that begins after this wall time. */
  stopAfterMs: number;
  /** Without COUNT, whole periods that end before this wall time may be skipped unexamined. */
  skipBeforeMs: number;
  /** Whether an occurrence is past UNTIL (null: no UNTIL). */
  pastUntil: ((wallMs: number) => boolean) | null;
  budget: ExpansionBudget;
}

const COARSE: Frequency[] = ["YEARLY", "MONTHLY", "WEEKLY", "DAILY"];

/** Times of day (ms after midnight) for rules of a day or longer, sorted. */
function timesOfDay(rule: Rule, start: number, isDate: boolean): number[] {
  if (isDate) return [0];
  const at = new Date(start);
  const hours = rule.byHour ?? [at.getUTCHours()];
  const minutes = rule.byMinute ?? [at.getUTCMinutes()];
  const seconds = rule.bySecond ?? [at.getUTCSeconds()];
  const times = new Set<number>();
  for (const h of hours) {
    for (const m of minutes) for (const s of seconds) times.add(h * HOUR + m * MINUTE + s * SECOND);
  }
  return [...times].sort((a, b) => a - b);
}

function applySetPos(candidates: number[], positions: number[] | null): number[] {
  if (positions === null) return candidates;
  const picked = new Set<number>();
  for (const p of positions) {
    const value = p > 0 ? candidates[p - 1] : candidates[candidates.length + p];
    if (value !== undefined) picked.add(value);
  }
  return [...picked].sort((a, b) => a - b);
}

/** The days of the period that begins at `periodDay` for a coarse frequency. */
function periodDays(
  freq: Frequency,
  periodDay: number,
  weekYear: boolean,
  wkst: number,
): [number, number] {
  const { year, month } = civil(periodDay);
  if (freq === "YEARLY") {
    if (weekYear) return [firstWeekStart(year, wkst), firstWeekStart(year + 1, wkst)];
    return [dayOf(year, 1, 1), dayOf(year + 1, 1, 1)];
  }
  if (freq === "MONTHLY") return [dayOf(year, month, 1), dayOf(year, month + 1, 1)];
  if (freq === "WEEKLY") return [periodDay, periodDay + 7];
  return [periodDay, periodDay + 1];
}

/** The first day of period `index` (coarse frequencies). */
function periodStartDay(rule: Rule, first: number, index: number): number {
  const step = index * rule.interval;
  const { year, month } = civil(first);
  if (rule.freq === "YEARLY") return dayOf(year + step, 1, 1);
  if (rule.freq === "MONTHLY") return dayOf(year, month + step, 1);
  if (rule.freq === "WEEKLY") return first + step * 7;
  return first + step;
}

/** The index of the last period that begins at or before `wallMs` (coarse frequencies). */
function periodIndexAt(rule: Rule, first: number, wallMs: number): number {
  const target = Math.floor(wallMs / DAY);
  const a = civil(first);
  const b = civil(target);
  const units = rule.freq === "YEARLY"
    ? b.year - a.year
    : rule.freq === "MONTHLY"
    ? (b.year - a.year) * 12 + (b.month - a.month)
    : rule.freq === "WEEKLY"
    ? Math.floor((target - first) / 7)
    : target - first;
  return Math.max(0, Math.floor(units / rule.interval));
}

function* coarse(rule: Rule, options: ExpandOptions): Generator<number> {
  const filters = filtersOf(rule, options.startMs);
  const times = timesOfDay(rule, options.startMs, options.isDate);
  const startDay = Math.floor(options.startMs / DAY);
  const first = rule.freq === "WEEKLY"
    ? startDay - ((weekdayOf(startDay) - rule.wkst + 7) % 7)
    : rule.freq === "DAILY"
    ? startDay
    : rule.freq === "MONTHLY"
    ? dayOf(civil(startDay).year, civil(startDay).month, 1)
    : dayOf(civil(startDay).year, 1, 1);
  const skip = rule.count === null ? periodIndexAt(rule, first, options.skipBeforeMs) : 0;
  for (let index = Math.max(0, skip - 1);; index++) {
    const periodDay = periodStartDay(rule, first, index);
    const [from, to] = periodDays(rule.freq, periodDay, rule.byWeekNo !== null, rule.wkst);
    if (from * DAY > options.stopAfterMs || civil(from).year > LAST_YEAR) return;
    options.budget.spend(to - from);
    const candidates: number[] = [];
    for (let day = from; day < to; day++) {
      if (!dayPasses(day, filters, rule.wkst)) continue;
      for (const time of times) candidates.push(day * DAY + time);
    }
    yield* applySetPos(candidates, rule.bySetPos);
  }
}

const UNIT: Partial<Record<Frequency, number>> = {
  HOURLY: HOUR,
  MINUTELY: MINUTE,
  SECONDLY: SECOND,
};

/** Hourly, minutely and secondly rules: periods that fail a day or hour filter are jumped over. */
function* fine(rule: Rule, options: ExpandOptions): Generator<number> {
  const unit = UNIT[rule.freq]!;
  const step = unit * rule.interval;
  const filters = filtersOf(rule, options.startMs);
  const byHour = rule.byHour ? new Set(rule.byHour) : null;
  const byMinute = rule.byMinute ? new Set(rule.byMinute) : null;
  const bySecond = rule.bySecond ? new Set(rule.bySecond) : null;
  const at = new Date(options.startMs);
  const minutes = rule.freq === "HOURLY" ? rule.byMinute ?? [at.getUTCMinutes()] : [0];
  const seconds = rule.freq === "SECONDLY" ? [0] : rule.bySecond ?? [at.getUTCSeconds()];
  const first = options.startMs - (options.startMs % unit);
  // Aligned on the rule's own periods, so INTERVAL keeps counting from DTSTART.
  const alignedAfter = (t: number) => first + Math.ceil((t - first) / step) * step;
  let period = rule.count === null && options.skipBeforeMs > first
    ? first + Math.floor((options.skipBeforeMs - first) / step) * step
    : first;
  while (period <= options.stopAfterMs && new Date(period).getUTCFullYear() <= LAST_YEAR) {
    options.budget.spend();
    const dayStart = period - (period % DAY);
    if (!dayPasses(dayStart / DAY, filters, rule.wkst)) {
      period = alignedAfter(dayStart + DAY);
      continue;
    }
    const when = new Date(period);
    if (byHour && !byHour.has(when.getUTCHours())) {
      period = alignedAfter(period - (period % HOUR) + HOUR);
      continue;
    }
    if (rule.freq !== "HOURLY" && byMinute && !byMinute.has(when.getUTCMinutes())) {
      period = alignedAfter(period - (period % MINUTE) + MINUTE);
      continue;
    }
    if (rule.freq === "SECONDLY" && bySecond && !bySecond.has(when.getUTCSeconds())) {
      period += step;
      continue;
    }
    const candidates: number[] = [];
    for (const m of minutes) {
      for (const s of seconds) candidates.push(period + m * MINUTE + s * SECOND);
    }
    candidates.sort((a, b) => a - b);
    yield* applySetPos(candidates, rule.bySetPos);
    period += step;
  }
}

/**
 * The rule's occurrences as wall times, earliest first: none before DTSTART, none past UNTIL, at
 * most COUNT. Throws ExpansionLimit when the budget runs out.
 */
export function* expandRule(rule: Rule, options: ExpandOptions): Generator<number> {
  const source = COARSE.includes(rule.freq) ? coarse(rule, options) : fine(rule, options);
  let produced = 0;
  for (const wallMs of source) {
    if (wallMs < options.startMs) continue;
    if (options.pastUntil?.(wallMs)) return;
    yield wallMs;
    if (rule.count !== null && ++produced >= rule.count) return;
  }
}
