/**
 * Expands a recurring master within the window, under bounds: at most MAX_OCCURRENCES events,
 * MAX_STEPS candidate steps and MAX_MS of processor time per series. A series that reaches a bound, or whose
 * values cannot be read, becomes one invalid record at its line and nothing of it is sent.
 */
import ICAL from "ical.js";
import type { ReadItem } from "./record.ts";
import { endOf, timeProperty } from "./ics-event.ts";
import type { IcsTime } from "./ics-times.ts";
import { ExpansionBudget, ExpansionLimit } from "./ics-recur.ts";
import { type Occurrence, occurrences, SeriesProblem } from "./ics-occurrences.ts";
import {
  emit,
  type IcsVevent,
  type Override,
  recurrenceKey,
  type SeriesContext,
} from "./ics-instance.ts";

type Component = InstanceType<typeof ICAL.Component>;
type Duration = InstanceType<typeof ICAL.Duration>;

/** Events one series may produce within the window. */
export const MAX_OCCURRENCES = 10_000;
/** Candidate steps (days, hours, ... examined) one series may take. */
export const MAX_STEPS = 1_000_000;
/** Processor time one series may take. */
export const MAX_MS = 2_000;

const DAY_MS = 86_400_000;
const SUB_DAILY = new Set(["HOURLY", "MINUTELY", "SECONDLY"]);

/** What the expansion gave: the items to pass on, and whether the series could be expanded. */
export interface Expanded {
  ok: boolean;
  items: ReadItem[];
}

/** The length of one occurrence in milliseconds (0 when unknown). */
function lengthMs(component: Component, dtstart: IcsTime): number {
  const end = endOf(component, dtstart, true);
  if (end === null) return 0;
  return Math.max(0, (end.time.toUnixTime() - dtstart.time.toUnixTime()) * 1000);
}

/** A THISANDFUTURE override and how far it moves the occurrences from its own on. */
interface Future {
  override: Override;
  shift: Duration;
}

function futuresOf(overrides: Map<string, Override>): Future[] {
  const futures: Future[] = [];
  for (const override of overrides.values()) {
    if (!override.thisAndFuture) continue;
    const component = override.v.component;
    const own = timeProperty(component, "dtstart") as IcsTime;
    const original = timeProperty(component, "recurrence-id") as IcsTime;
    const from = original.time.clone();
    from.isDate = own.time.isDate;
    // Same zone: the wall-clock difference, so a move from 10:00 to 11:00 stays 11:00 across DST.
    const shift = own.tzid === original.tzid
      ? own.time.subtractDate(from)
      : own.time.subtractDateTz(from);
    futures.push({ override, shift });
  }
  // Keys are stamps of one kind within a series, so text order is time order.
  return futures.sort((a, b) => (a.override.key < b.override.key ? -1 : 1));
}

/** The THISANDFUTURE override in force for the occurrence with key `key`, if any. */
function futureFor(futures: Future[], key: string): Future | null {
  let found: Future | null = null;
  for (const future of futures) {
    if (future.override.key <= key) found = future;
    else break;
  }
  return found;
}

function invalid(uid: string, master: IcsVevent, context: SeriesContext, why: string): Expanded {
  return {
    ok: false,
    items: [{
      kind: "invalid",
      location: context.location(master.line),
      message: `${uid}: ${why}`,
    }],
  };
}

function windowText(context: SeriesContext): string {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return `between ${day(context.windowStartMs)} and ${day(context.windowEndMs)}`;
}

/** The events of a recurring master and its overrides; consumed overrides leave `overrides`. */
export function expandMaster(
  uid: string,
  master: IcsVevent,
  overrides: Map<string, Override>,
  context: SeriesContext,
): Expanded {
  const dtstart = timeProperty(master.component, "dtstart") as IcsTime;
  const subDaily = master.rules.find((rule) => SUB_DAILY.has(rule.freq));
  if (dtstart.time.isDate && subDaily) {
    return invalid(uid, master, context, `FREQ=${subDaily.freq} cannot repeat an all-day event`);
  }
  const budget = new ExpansionBudget(MAX_STEPS, MAX_MS);
  const bounds = {
    stopAfterMs: context.windowEndMs + 2 * DAY_MS,
    skipBeforeMs: context.windowStartMs - 2 * DAY_MS - lengthMs(master.component, dtstart),
    budget,
  };
  const futures = futuresOf(overrides);
  const items: ReadItem[] = [];
  let events = 0;
  try {
    for (const occurrence of occurrences(master.component, dtstart, master.rules, bounds)) {
      budget.spend();
      const { start, problem } = occurrence;
      // A day of slack: all-day and floating times are compared here as if they were UTC.
      if (start.time.toUnixTime() * 1000 >= context.windowEndMs + DAY_MS) break;
      if (problem !== null) {
        if (start.time.toUnixTime() * 1000 >= context.windowStartMs - DAY_MS) {
          items.push({
            kind: "invalid",
            location: context.location(master.line),
            message: `${uid}: ${problem}`,
          });
        }
        continue;
      }
      const occurrenceKey = recurrenceKey(start, occurrence.property, context);
      if (!occurrenceKey.ok) return invalid(uid, master, context, occurrenceKey.message);
      const key = occurrenceKey.key;
      const item = occurrenceItem({ uid, master, occurrence, key, overrides, futures, context });
      if (item === null) continue;
      items.push(item);
      if (item.kind === "event" && ++events > MAX_OCCURRENCES) {
        return invalid(
          uid,
          master,
          context,
          `the series has more than ${MAX_OCCURRENCES.toLocaleString("en")} occurrences ` +
            `${
              windowText(context)
            }: check its RRULE, or shorten the window with --horizon or --from`,
        );
      }
    }
  } catch (error) {
    if (error instanceof ExpansionLimit) {
      return invalid(
        uid,
        master,
        context,
        `cannot expand the series: ${error.message}; check its RRULE`,
      );
    }
    if (error instanceof SeriesProblem) return invalid(uid, master, context, error.message);
    return invalid(
      uid,
      master,
      context,
      "cannot expand the series: its RRULE, RDATE or EXDATE values do not follow RFC 5545",
    );
  }
  if (items.length === 0 && overrides.size === 0) {
    items.push({
      kind: "skipped",
      location: context.location(master.line),
      message: `${uid}: recurring series has no occurrence ${
        windowText(context)
      } (see --horizon and --from)`,
    });
  }
  return { ok: true, items };
}

function occurrenceItem(options: {
  uid: string;
  master: IcsVevent;
  occurrence: Occurrence;
  key: string;
  overrides: Map<string, Override>;
  futures: Future[];
  context: SeriesContext;
}): ReadItem | null {
  const { uid, master, occurrence, key, overrides, context } = options;
  const externalId = `${uid}#${key}`;
  const override = overrides.get(key);
  if (override) {
    overrides.delete(key);
    const ownStart = timeProperty(override.v.component, "dtstart") as IcsTime;
    return emit(override.v, externalId, ownStart, { ownStart: true, context, checkWindow: true });
  }
  const future = futureFor(options.futures, key);
  if (future) {
    // RFC 5545 3.8.4.4: a later occurrence moves by the same difference and takes the override's
    // properties and length.
    const time = occurrence.start.time.clone();
    time.addDuration(future.shift);
    return emit(future.override.v, externalId, { time, tzid: occurrence.start.tzid }, {
      ownStart: false,
      context,
      checkWindow: true,
    });
  }
  return emit(master, externalId, occurrence.start, {
    ownStart: occurrence.own,
    context,
    checkWindow: true,
    end: occurrence.end,
  });
}
