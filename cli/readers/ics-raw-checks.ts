/**
 * Checks a VEVENT's text before ical.js reads it: ical.js rolls dates that do not exist over
 * (20240230 becomes March 1), drops rule parts it does not know, and answers some malformed lines
 * with its own internal messages. Here each is found first and said in plain words.
 */
import { parseRule, readRuleTime, type Rule } from "./ics-rrule.ts";

/** The VEVENT text for ical.js (without its RRULEs), the checked rules and what to warn about. */
export interface CheckedVevent {
  text: string;
  rules: Rule[];
  warnings: string[];
}

const DATE_PROPERTIES = new Set(["DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "RDATE", "EXDATE"]);
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** Why a date or date-time value is not one that exists, or null when it is fine. */
export function timeValueProblem(name: string, value: string): string | null {
  const text = value.trim();
  if (readRuleTime(text) !== null) return null;
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/i.exec(text);
  if (!m) {
    return `${name} value ${JSON.stringify(text)} is not a date (YYYYMMDD) or a date-time ` +
      "(YYYYMMDDTHHMMSS, with Z for UTC)";
  }
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12) return `${name} ${text} names month ${m[2]}, which does not exist`;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > days) {
    return `${name} ${text} is not a date that exists: ${
      MONTHS[month - 1]
    } ${year} has ${days} days`;
  }
  return `${name} ${text} is not a time of day that exists (hours 00-23, minutes and seconds 00-59)`;
}

function nameOf(line: string): string | null {
  const m = /^([A-Za-z0-9-]+)[;:]/.exec(line);
  return m ? m[1].toUpperCase() : null;
}

/** The value after the first colon outside a quoted parameter. */
function valueOf(line: string): { params: string; value: string } {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (c === ":" && !quoted) return { params: line.slice(0, i), value: line.slice(i + 1) };
  }
  return { params: line, value: "" };
}

function datesProblem(name: string, params: string, value: string): string | null {
  const isPeriod = /;VALUE=PERIOD/i.test(params);
  for (const item of value.split(",")) {
    if (item.trim() === "") continue;
    // RDATE periods are start/end or start/duration; only the times are dates to check.
    const [start, end] = item.split("/");
    const problem = timeValueProblem(name, start) ??
      (end !== undefined && !/^[+-]?P/i.test(end.trim()) ? timeValueProblem(name, end) : null);
    if (problem) return problem;
    if (end !== undefined && !isPeriod && name !== "RDATE") {
      return `${name} value ${JSON.stringify(item.trim())} is a period, which ${name} cannot be`;
    }
  }
  return null;
}

/** Checks the VEVENT's lines; the checked text and rules, or the first problem found. */
export function checkVevent(text: string): CheckedVevent | { message: string } {
  const kept: string[] = [];
  const rules: Rule[] = [];
  const warnings: string[] = [];
  let depth = 0;
  for (const line of text.split("\r\n")) {
    const name = nameOf(line);
    if (name === null) {
      // A folded line whose continuation lost its leading space (Apple's calendar server writes
      // them). node-ical and Python's icalendar skip such a line and keep the event; ical.js
      // refuses the whole calendar. Skipped here too, and said, since its text is lost.
      const shown = line.length > 60 ? `${line.slice(0, 60)}…` : line;
      warnings.push(
        `line ${JSON.stringify(shown)} is not a property (NAME:value) and does not start with a ` +
          "space, so it continues no line: left out (a folded line's continuation starts with a space)",
      );
      continue;
    }
    if (name === "BEGIN") depth++;
    else if (name === "END") depth--;
    // Properties of a nested VALARM are not the event's own.
    const own = depth === 1 && name !== "BEGIN";
    const { params, value } = valueOf(line);
    if (own && name === "RRULE") {
      const parsed = parseRule(value);
      if (!parsed.ok) return { message: `RRULE:${value} cannot be expanded: ${parsed.message}` };
      rules.push(parsed.rule);
      warnings.push(...parsed.warnings);
      continue;
    }
    if (own && name === "EXRULE") {
      return {
        message: "EXRULE is not supported (RFC 5545 removed it): list the excluded dates as EXDATE",
      };
    }
    if (own && DATE_PROPERTIES.has(name)) {
      const type = /;VALUE=([^;:]*)/i.exec(params)?.[1].toUpperCase();
      if (type !== undefined && !["DATE", "DATE-TIME", "PERIOD"].includes(type)) {
        return { message: `${name} has VALUE=${type}; it must be a date, a date-time or a period` };
      }
      const problem = datesProblem(name, params, value);
      if (problem) return { message: problem };
    }
    kept.push(line);
  }
  return { text: kept.join("\r\n"), rules, warnings };
}
