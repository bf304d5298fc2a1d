/**
 * Turns every VEVENT sharing one UID into events: picks the newest version of each (SEQUENCE),
 * expands a recurring master within the horizon, applies RECURRENCE-ID overrides and EXDATEs.
 */
import ICAL from "ical.js";
import type { ReadItem } from "./record.ts";
import { buildEvent, endOf, type IcsContext, skipReason, timeProperty } from "./ics-event.ts";
import { type IcsTime, instantOf, occurrenceStamp } from "./ics-times.ts";
import { occurrences } from "./ics-occurrences.ts";

type Component = InstanceType<typeof ICAL.Component>;

/** One parsed VEVENT with the line it starts on. */
export interface IcsVevent {
  component: Component;
  line: number;
}

/** The series-wide settings: calendar context plus the recurrence window. */
export interface SeriesContext extends IcsContext {
  method?: string;
  windowStartMs: number;
  windowEndMs: number;
  location: (line: number) => string;
}

const DAY_MS = 86_400_000;
// A guard against rules such as FREQ=SECONDLY that would otherwise run for hours.
const MAX_STEPS = 200_000;

function sequenceOf(v: IcsVevent): number {
  const value = Number(v.component.getFirstPropertyValue("sequence") ?? 0);
  return Number.isFinite(value) ? value : 0;
}

function stampOf(v: IcsVevent): number {
  const value = v.component.getFirstPropertyValue("dtstamp");
  return value instanceof ICAL.Time ? value.toUnixTime() : 0;
}

/** Keeps the newest version: highest SEQUENCE, then latest DTSTAMP, then the last in the file. */
function newest(a: IcsVevent, b: IcsVevent): IcsVevent {
  const bySequence = sequenceOf(b) - sequenceOf(a);
  if (bySequence !== 0) return bySequence > 0 ? b : a;
  return stampOf(b) >= stampOf(a) ? b : a;
}

function superseded(old: IcsVevent, kept: IcsVevent, context: SeriesContext): ReadItem {
  return {
    kind: "skipped",
    location: context.location(old.line),
    message: `superseded by the newer version of the same event at line ${kept.line} (SEQUENCE)`,
  };
}

function isRecurring(component: Component): boolean {
  return component.hasProperty("rrule") || component.hasProperty("rdate");
}

function inWindow(startMs: number, endMs: number | null, context: SeriesContext): boolean {
  return startMs < context.windowEndMs && (endMs ?? startMs) >= context.windowStartMs;
}

function emit(
  v: IcsVevent,
  externalId: string,
  start: IcsTime,
  ownStart: boolean,
  context: SeriesContext,
  checkWindow: boolean,
  end?: IcsTime | null,
): ReadItem | null {
  const location = context.location(v.line);
  const skip = skipReason(v.component, context.method);
  if (skip) return { kind: "skipped", location, message: `${externalId}: ${skip}` };
  const built = buildEvent(
    v.component,
    externalId,
    start,
    end ?? endOf(v.component, start, ownStart),
    context,
  );
  if (!built.ok) return { kind: "invalid", location, message: built.message };
  if (checkWindow) {
    const startMs = Date.parse(built.event.starts_at as string);
    const endMs = built.event.ends_at ? Date.parse(built.event.ends_at as string) : null;
    if (!inWindow(startMs, endMs, context)) return null;
  }
  return { kind: "event", location, event: built.event };
}

/**
 * The key an occurrence is matched by (its original start as a stamp), or why `time`, the value of
 * `property`, has no instant.
 */
function recurrenceKey(
  time: IcsTime,
  property: string,
  context: SeriesContext,
): { ok: true; key: string } | { ok: false; message: string } {
  const instant = instantOf(time, context.defaultZone, property, context.zoneYears);
  return instant.ok ? { ok: true, key: occurrenceStamp(time.time, instant.epochMs) } : instant;
}

/** All events of one UID, in start order for a series. */
export function* expandSeries(
  uid: string,
  vevents: IcsVevent[],
  context: SeriesContext,
): Generator<ReadItem> {
  let master: IcsVevent | null = null;
  const overrides = new Map<string, IcsVevent>();
  for (const v of vevents) {
    const recurrenceId = timeProperty(v.component, "recurrence-id");
    if (recurrenceId === null) {
      const kept: IcsVevent = master === null ? v : newest(master, v);
      if (master !== null) yield superseded(kept === v ? master : v, kept, context);
      master = kept;
      continue;
    }
    const recurrence = recurrenceKey(recurrenceId, "RECURRENCE-ID", context);
    if (!recurrence.ok) {
      yield { kind: "invalid", location: context.location(v.line), message: recurrence.message };
      continue;
    }
    const previous = overrides.get(recurrence.key);
    const kept = previous === undefined ? v : newest(previous, v);
    if (previous !== undefined) yield superseded(kept === v ? previous : v, kept, context);
    overrides.set(recurrence.key, kept);
  }

  if (master !== null && !isRecurring(master.component)) {
    const start = timeProperty(master.component, "dtstart") as IcsTime;
    // An unreadable DTSTART matches no override; building the event below reports it.
    const own = recurrenceKey(start, "DTSTART", context);
    const replacement = own.ok ? overrides.get(own.key) : undefined;
    if (replacement && own.ok) overrides.delete(own.key);
    const item = replacement
      ? emit(
        replacement,
        uid,
        timeProperty(replacement.component, "dtstart") as IcsTime,
        true,
        context,
        false,
      )
      : emit(master, uid, start, true, context, false);
    if (item) yield item;
  } else if (master !== null) {
    const masterSkip = skipReason(master.component, context.method);
    if (masterSkip) {
      yield {
        kind: "skipped",
        location: context.location(master.line),
        message: `${uid}: ${masterSkip} (whole series)`,
      };
      return;
    }
    yield* expandMaster(uid, master, overrides, context);
  }
  // Overrides that matched no generated occurrence are instances in their own right.
  for (const [key, v] of overrides) {
    const start = timeProperty(v.component, "dtstart") as IcsTime;
    const item = emit(v, `${uid}#${key}`, start, true, context, true);
    if (item) yield item;
  }
}

function* expandMaster(
  uid: string,
  master: IcsVevent,
  overrides: Map<string, IcsVevent>,
  context: SeriesContext,
): Generator<ReadItem> {
  const dtstart = timeProperty(master.component, "dtstart") as IcsTime;
  const location = context.location(master.line);
  // A malformed rule or RDATE/EXDATE value may throw at any step of the expansion.
  const unexpandable = (error: unknown): ReadItem => ({
    kind: "invalid",
    location,
    message: `cannot expand the recurrence rule: ${(error as Error).message}`,
  });
  const expansion = occurrences(master.component, dtstart);
  // Counts every item, so that a series whose occurrences were all cancelled or invalid is not
  // also reported as empty.
  let produced = 0;
  for (let steps = 0;; steps++) {
    let next;
    try {
      next = expansion.next();
    } catch (error) {
      yield unexpandable(error);
      return;
    }
    if (next.done) break;
    const { start, end, own, property, problem } = next.value;
    const startMs = start.time.toUnixTime() * 1000;
    // A day of slack: all-day and floating times are compared here as if they were UTC.
    if (startMs >= context.windowEndMs + DAY_MS) break;
    if (steps >= MAX_STEPS) {
      yield {
        kind: "skipped",
        location,
        message: `${uid}: stopped expanding after ${MAX_STEPS} occurrences`,
      };
      break;
    }
    if (problem !== null) {
      if (startMs >= context.windowStartMs - DAY_MS) {
        produced++;
        yield { kind: "invalid", location, message: `${uid}: ${problem}` };
      }
      continue;
    }
    const occurrence = recurrenceKey(start, property, context);
    if (!occurrence.ok) {
      yield {
        kind: "invalid",
        location,
        message: occurrence.message,
      };
      return;
    }
    const key = occurrence.key;
    const override = overrides.get(key);
    if (override) {
      overrides.delete(key);
      const ownStart = timeProperty(override.component, "dtstart") as IcsTime;
      const item = emit(override, `${uid}#${key}`, ownStart, true, context, true);
      if (item) {
        produced++;
        yield item;
      }
      continue;
    }
    const item = emit(master, `${uid}#${key}`, start, own, context, true, end);
    if (item) {
      produced++;
      yield item;
    }
  }
  if (produced === 0 && overrides.size === 0) {
    const from = new Date(context.windowStartMs).toISOString().slice(0, 10);
    const to = new Date(context.windowEndMs).toISOString().slice(0, 10);
    yield {
      kind: "skipped",
      location,
      message:
        `${uid}: recurring series has no occurrence between ${from} and ${to} (see --horizon and --from)`,
    };
  }
}
