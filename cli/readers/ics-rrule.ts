/**
 * Reads an RRULE value (RFC 5545 3.3.10): every known rule part checked, impossible values
 * reported in plain words, never passed on to be guessed at. A part it does not know is left out
 * with a warning, as ical.js and other readers leave it out (Google Calendar has written
 * `RRULE:RRULE:AnythingRandom;FREQ=WEEKLY;...`): the rest of the rule still says what repeats.
 */
import { closestName } from "./did-you-mean.ts";

export const FREQUENCIES = [
  "SECONDLY",
  "MINUTELY",
  "HOURLY",
  "DAILY",
  "WEEKLY",
  "MONTHLY",
  "YEARLY",
] as const;
export type Frequency = typeof FREQUENCIES[number];

/** Weekdays as RFC 5545 writes them, in JavaScript's order (0 = Sunday). */
export const WEEKDAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"] as const;

/** A wall-clock date or date-time as written (UNTIL), without a zone. */
export interface RuleTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  isDate: boolean;
  utc: boolean;
}

/** A checked recurrence rule. */
export interface Rule {
  freq: Frequency;
  interval: number;
  count: number | null;
  until: RuleTime | null;
  bySecond: number[] | null;
  byMinute: number[] | null;
  byHour: number[] | null;
  /** Weekday (0 = Sunday) with its ordinal (0 for every such weekday). */
  byDay: { weekday: number; nth: number }[] | null;
  byMonthDay: number[] | null;
  byYearDay: number[] | null;
  byWeekNo: number[] | null;
  byMonth: number[] | null;
  bySetPos: number[] | null;
  /** Week start, 0 = Sunday; Monday unless WKST says otherwise. */
  wkst: number;
}

/** The rule, or what is wrong with it; `warnings` are read past (such as COUNT=-1 with UNTIL). */
export type ParsedRule =
  | { ok: true; rule: Rule; warnings: string[] }
  | { ok: false; message: string };

const PARTS = [
  "FREQ",
  "INTERVAL",
  "COUNT",
  "UNTIL",
  "BYSECOND",
  "BYMINUTE",
  "BYHOUR",
  "BYDAY",
  "BYMONTHDAY",
  "BYYEARDAY",
  "BYWEEKNO",
  "BYMONTH",
  "BYSETPOS",
  "WKST",
];

class RuleProblem extends Error {}

function fail(message: string): never {
  throw new RuleProblem(message);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A date or date-time value (YYYYMMDD or YYYYMMDDTHHMMSS[Z]) that exists, or null. */
export function readRuleTime(text: string): RuleTime | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/i.exec(text.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 60) return null;
  return {
    year,
    month,
    day,
    hour,
    minute,
    second,
    isDate: m[4] === undefined,
    utc: m[7] !== "" && m[7] !== undefined,
  };
}

function integers(name: string, value: string, range: { min: number; max: number }): number[] {
  const signed = range.min < 0;
  return value.split(",").map((item) => {
    const text = item.trim();
    const n = Number(text);
    if (!/^[+-]?\d+$/.test(text) || n < range.min || n > range.max || (signed && n === 0)) {
      const allowed = signed
        ? `${range.min} to -1 or 1 to ${range.max}`
        : `${range.min} to ${range.max}`;
      fail(`${name}=${value}: ${JSON.stringify(text)} is not a whole number from ${allowed}`);
    }
    return n;
  });
}

function weekday(name: string, text: string): number {
  const index = (WEEKDAYS as readonly string[]).indexOf(text.trim().toUpperCase());
  if (index < 0) fail(`${name}=${text} is not a weekday (SU, MO, TU, WE, TH, FR or SA)`);
  return index;
}

function byDay(value: string): { weekday: number; nth: number }[] {
  return value.split(",").map((item) => {
    const m = /^([+-]?\d{1,2})?([A-Za-z]{2})$/.exec(item.trim());
    if (!m) fail(`BYDAY=${value}: ${JSON.stringify(item)} is not a weekday such as MO or 2TU`);
    const nth = m[1] === undefined ? 0 : Number(m[1]);
    if (m[1] !== undefined && (nth === 0 || Math.abs(nth) > 53)) {
      fail(`BYDAY=${value}: ${item} has a position outside -53..53`);
    }
    return { weekday: weekday("BYDAY", m[2]), nth };
  });
}

function positive(name: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1) {
    fail(`${name}=${value} is not a whole number of 1 or more`);
  }
  return n;
}

/**
 * The rule parts as NAME -> value; duplicate and empty parts are errors, unknown parts are left
 * out with a warning.
 */
function splitParts(text: string, warnings: string[]): Map<string, string> {
  const parts = new Map<string, string>();
  for (const raw of text.split(";")) {
    if (raw.trim() === "") continue;
    const eq = raw.indexOf("=");
    if (eq <= 0) {
      warnings.push(
        `RRULE part ${
          JSON.stringify(raw)
        } is not NAME=value: left out, the rest of the rule is read`,
      );
      continue;
    }
    const name = raw.slice(0, eq).trim().toUpperCase();
    const value = raw.slice(eq + 1).trim();
    // Extension parts (X-NAME) are allowed by RFC 5545 and mean nothing to us.
    if (name.startsWith("X-")) continue;
    if (!PARTS.includes(name)) {
      const guess = closestName(name, PARTS);
      const hint = guess ? ` (did you mean ${guess}?)` : "";
      warnings.push(`RRULE part ${name} is unknown${hint}: left out, the rest of the rule is read`);
      continue;
    }
    if (parts.has(name)) fail(`${name} is given twice`);
    if (value === "") fail(`${name} has no value`);
    parts.set(name, value);
  }
  return parts;
}

function checkCombinations(rule: Rule): void {
  const freq = rule.freq;
  if (rule.byDay?.some((d) => d.nth !== 0)) {
    if (freq !== "MONTHLY" && freq !== "YEARLY") {
      fail("BYDAY with a position (such as 2MO) is only allowed with FREQ=MONTHLY or YEARLY");
    }
    if (freq === "YEARLY" && rule.byWeekNo) {
      fail("BYDAY with a position (such as 2MO) cannot be combined with BYWEEKNO");
    }
  }
  if (rule.byMonthDay && freq === "WEEKLY") fail("BYMONTHDAY cannot be used with FREQ=WEEKLY");
  if (rule.byYearDay && ["DAILY", "WEEKLY", "MONTHLY"].includes(freq)) {
    fail(`BYYEARDAY cannot be used with FREQ=${freq}`);
  }
  if (rule.byWeekNo && freq !== "YEARLY") fail("BYWEEKNO is only allowed with FREQ=YEARLY");
  if (rule.byMonth && rule.byMonthDay) {
    // Days in each month of a leap year: the most a month ever has.
    const most = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    const fits = rule.byMonth.some((month) =>
      rule.byMonthDay!.some((day) => Math.abs(day) <= most[month - 1])
    );
    if (!fits) {
      fail(
        `BYMONTHDAY=${rule.byMonthDay.join(",")} never falls in BYMONTH=${
          rule.byMonth.join(",")
        }: ` +
          "the rule has no occurrence",
      );
    }
  }
}

function readCountAndUntil(parts: Map<string, string>, warnings: string[]) {
  const untilText = parts.get("UNTIL");
  let until: RuleTime | null = null;
  if (untilText !== undefined) {
    until = readRuleTime(untilText);
    if (until === null) {
      fail(`UNTIL=${untilText} is not a date that exists (write YYYYMMDD or YYYYMMDDTHHMMSSZ)`);
    }
  }
  const countText = parts.get("COUNT");
  let count: number | null = null;
  if (countText !== undefined) {
    if (/^-\d+$/.test(countText.trim()) && until !== null) {
      // Atlassian Confluence writes COUNT=-1 next to UNTIL: UNTIL alone bounds the series.
      warnings.push(`COUNT=${countText} is not a count; the series ends at UNTIL=${untilText}`);
    } else {
      count = positive("COUNT", countText);
    }
  }
  return { count, until };
}

/** Parses and checks one RRULE value. */
export function parseRule(text: string): ParsedRule {
  try {
    if (text.trim() === "") fail("RRULE is empty: it needs at least FREQ (such as FREQ=WEEKLY)");
    const warnings: string[] = [];
    const parts = splitParts(text, warnings);
    const freqText = parts.get("FREQ");
    if (freqText === undefined) fail("RRULE has no FREQ (such as FREQ=WEEKLY)");
    const freq = freqText.toUpperCase() as Frequency;
    if (!FREQUENCIES.includes(freq)) {
      fail(`FREQ=${freqText} is not a frequency (${FREQUENCIES.join(", ")})`);
    }
    const list = (name: string, min: number, max: number) => {
      const value = parts.get(name);
      return value === undefined ? null : integers(name, value, { min, max });
    };
    const rule: Rule = {
      freq,
      interval: parts.has("INTERVAL") ? positive("INTERVAL", parts.get("INTERVAL")!) : 1,
      ...readCountAndUntil(parts, warnings),
      bySecond: list("BYSECOND", 0, 60),
      byMinute: list("BYMINUTE", 0, 59),
      byHour: list("BYHOUR", 0, 23),
      byDay: parts.has("BYDAY") ? byDay(parts.get("BYDAY")!) : null,
      byMonthDay: list("BYMONTHDAY", -31, 31),
      byYearDay: list("BYYEARDAY", -366, 366),
      byWeekNo: list("BYWEEKNO", -53, 53),
      byMonth: list("BYMONTH", 1, 12),
      bySetPos: list("BYSETPOS", -366, 366),
      wkst: parts.has("WKST") ? weekday("WKST", parts.get("WKST")!) : 1,
    };
    checkCombinations(rule);
    return { ok: true, rule, warnings };
  } catch (error) {
    if (error instanceof RuleProblem) return { ok: false, message: error.message };
    throw error;
  }
}
