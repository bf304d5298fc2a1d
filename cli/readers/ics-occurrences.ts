/**
 * The recurrence set of a recurring VEVENT (RFC 5545 3.8.5): RRULE occurrences, RDATEs (dates,
 * date-times in any zone, periods) and DTSTART, minus EXDATEs, in time order.
 *
 * ical.js's RecurExpansion is not used for this: it hands an RDATE period back where a time is
 * expected, drops DTSTART from a series made of RDATEs only, and jumps back to an RDATE before
 * DTSTART. Its RRULE iterator is not used either (see ics-recur.ts).
 */
import ICAL from "ical.js";
import type { IcsTime } from "./ics-times.ts";
import { expandRule, type ExpansionBudget } from "./ics-recur.ts";
import type { Rule, RuleTime } from "./ics-rrule.ts";

type Component = InstanceType<typeof ICAL.Component>;
type Time = InstanceType<typeof ICAL.Time>;

/** A value of the series that cannot be read; its message is meant for the user. */
export class SeriesProblem extends Error {}

/** One instance of the series: its start, and its own end when an RDATE period gives one. */
export interface Occurrence {
  start: IcsTime;
  /** The end an RDATE period sets for this instance (RFC 5545 3.8.5.2), else null. */
  end: IcsTime | null;
  /** Whether this is the instance DTSTART names, which keeps the component's own DTEND. */
  own: boolean;
  /** The property the start was read from, for messages. */
  property: "DTSTART" | "RDATE";
  /** Why this instance cannot be read as the series is written, else null. */
  problem: string | null;
}

function tzidOf(property: InstanceType<typeof ICAL.Property>): string | null {
  const tzid = property.getParameter("tzid");
  return typeof tzid === "string" ? tzid : null;
}

function dayKey(time: Time): number {
  return time.year * 10_000 + time.month * 100 + time.day;
}

/** Every value of every `name` property, earliest first: its start, its TZID, a period's end. */
function listed(
  component: Component,
  name: string,
): { start: Time; end: Time | null; tzid: string | null }[] {
  const found = [];
  for (const property of component.getAllProperties(name)) {
    const tzid = tzidOf(property);
    for (const value of property.getValues()) {
      if (value instanceof ICAL.Period) {
        found.push({ start: value.start, end: value.getEnd(), tzid });
      } else if (value instanceof ICAL.Time) found.push({ start: value, end: null, tzid });
      else {
        throw new SeriesProblem(
          `${name.toUpperCase()} has a value that is not a date or date-time`,
        );
      }
    }
  }
  return found.sort((a, b) => a.start.toUnixTime() - b.start.toUnixTime());
}

function mismatch(time: Time, dtstart: Time): string | null {
  if (time.isDate === dtstart.isDate) return null;
  const kind = (t: Time) => (t.isDate ? "date" : "date-time");
  return `RDATE ${time.toICALString()} is a ${kind(time)} but DTSTART is a ${kind(dtstart)}: ` +
    "the occurrence's start cannot be told";
}

/** How far to expand: wall times (see ics-recur.ts) and the work allowed. */
export interface ExpansionBounds {
  stopAfterMs: number;
  skipBeforeMs: number;
  budget: ExpansionBudget;
}

const DAY_MS = 86_400_000;

function wallMsOf(t: Time | RuleTime): number {
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
}

/**
 * Whether a wall time is past the rule's UNTIL. With a DTSTART in a zone, a date-time UNTIL is an
 * instant in UTC: RFC 5545 3.3.10 requires the Z there, and an UNTIL written without it is read as
 * UTC all the same, as ical.js reads it (node-ical reads it in DTSTART's zone instead; in a zone
 * west of UTC that gives one occurrence more). A date UNTIL (and any UNTIL of an all-day, floating
 * or UTC series) is compared as a wall time.
 */
function untilTest(until: RuleTime | null, dtstart: Time): ((wallMs: number) => boolean) | null {
  if (until === null) return null;
  const untilWall = wallMsOf(until);
  if (until.isDate) {
    const lastDay = Math.floor(untilWall / DAY_MS);
    return (wallMs) => Math.floor(wallMs / DAY_MS) > lastDay;
  }
  const zone = dtstart.zone;
  const zoned = !dtstart.isDate && zone && zone !== ICAL.Timezone.localTimezone &&
    zone !== ICAL.Timezone.utcTimezone;
  if (!zoned) return (wallMs) => wallMs > untilWall;
  const untilSeconds = untilWall / 1000;
  return (wallMs) => {
    // Offsets are under a day (two with slack): only times near UNTIL need converting.
    if (wallMs < untilWall - 2 * DAY_MS) return false;
    if (wallMs > untilWall + 2 * DAY_MS) return true;
    return timeAt(wallMs, dtstart).toUnixTime() > untilSeconds;
  };
}

function timeAt(wallMs: number, like: Time): Time {
  const d = new Date(wallMs);
  return new ICAL.Time({
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    isDate: like.isDate,
  }, like.zone);
}

function* ruleOccurrences(
  rules: Rule[],
  dtstart: IcsTime,
  bounds: ExpansionBounds,
): Generator<Occurrence> {
  const startMs = wallMsOf(dtstart.time);
  const iterators = rules.map((rule) =>
    expandRule(rule, {
      ...bounds,
      startMs,
      isDate: dtstart.time.isDate,
      pastUntil: untilTest(rule.until, dtstart.time),
    })
  );
  const heads = iterators.map((it) => it.next().value ?? null);
  for (;;) {
    let first = -1;
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i];
      if (head !== null && (first < 0 || head < heads[first]!)) first = i;
    }
    if (first < 0) return;
    const wallMs = heads[first]!;
    yield {
      start: { time: timeAt(wallMs, dtstart.time), tzid: dtstart.tzid },
      end: null,
      own: false,
      property: "DTSTART",
      problem: null,
    };
    // Several rules may give the same time: it is one occurrence.
    for (let i = 0; i < heads.length; i++) {
      while (heads[i] === wallMs) heads[i] = iterators[i].next().value ?? null;
    }
  }
}

/** The occurrences of `component`, whose DTSTART is `dtstart` and rules `rules`, earliest first. */
export function* occurrences(
  component: Component,
  dtstart: IcsTime,
  rules: Rule[],
  bounds: ExpansionBounds,
): Generator<Occurrence> {
  const ruled = ruleOccurrences(rules, dtstart, bounds);
  const dated: Occurrence[] = listed(component, "rdate").map(({ start, end, tzid }) => ({
    start: { time: start, tzid },
    end: end === null ? null : { time: end, tzid },
    own: false,
    property: "RDATE",
    problem: mismatch(start, dtstart.time),
  }));
  // DTSTART is the first instance (RFC 5545 3.8.2.4). With RRULEs their iterator gives it when it
  // fits the rule; a DTSTART that does not fit stays out, as ical.js has always done.
  if (rules.length === 0) {
    dated.unshift({ start: dtstart, end: null, own: true, property: "DTSTART", problem: null });
    // Stable: DTSTART stays ahead of an RDATE at the same instant.
    dated.sort((a, b) => a.start.time.toUnixTime() - b.start.time.toUnixTime());
  }
  // A date EXDATE removes its whole day, a date-time one the occurrence at that instant.
  const excluded = listed(component, "exdate").map((e) => e.start);
  const excludedDays = new Set(excluded.filter((t) => t.isDate).map(dayKey));
  const excludedTimes = new Set(excluded.filter((t) => !t.isDate).map((t) => t.toUnixTime()));
  const isExcluded = (time: Time) =>
    excludedDays.has(dayKey(time)) || (!time.isDate && excludedTimes.has(time.toUnixTime()));

  let rule = ruled.next();
  let next = 0;
  let last: number | null = null;
  for (;;) {
    const fromRule = rule.done ? null : rule.value;
    const fromList = next < dated.length ? dated[next] : null;
    if (!fromRule && !fromList) return;
    // Negative: the rule's occurrence comes first; zero: the same instant, given by both.
    const order = !fromList
      ? -1
      : !fromRule
      ? 1
      : fromRule.start.time.toUnixTime() - fromList.start.time.toUnixTime();
    let item: Occurrence;
    if (order < 0) {
      item = fromRule!;
      rule = ruled.next();
    } else {
      // On a tie the listed one is kept: an RDATE period carries the instance's own end.
      item = fromList!;
      next++;
      if (order === 0) rule = ruled.next();
    }
    const at = item.start.time.toUnixTime();
    if (at === last) continue;
    last = at;
    if (isExcluded(item.start.time)) continue;
    yield { ...item, own: item.own || item.start.time.compare(dtstart.time) === 0 };
  }
}
