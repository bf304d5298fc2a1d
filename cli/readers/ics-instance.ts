/** One occurrence of a series as an event: the shared pieces of ics-series and its expansion. */
import type ICAL from "ical.js";
import type { ReadItem } from "./record.ts";
import { buildEvent, endOf, type IcsContext, isCancellation, skipReason } from "./ics-event.ts";
import { type IcsTime, instantOf, occurrenceStamp } from "./ics-times.ts";
import type { Rule } from "./ics-rrule.ts";

type Component = InstanceType<typeof ICAL.Component>;

/** One parsed VEVENT with the line it starts on and its checked recurrence rules. */
export interface IcsVevent {
  component: Component;
  line: number;
  rules: Rule[];
  /** Things read past that the user should hear about (COUNT=-1 with UNTIL). */
  warnings: string[];
}

/** The series-wide settings: calendar context plus the recurrence window. */
export interface SeriesContext extends IcsContext {
  method?: string;
  windowStartMs: number;
  windowEndMs: number;
  location: (line: number) => string;
}

/** An override that moves its occurrence and, with RANGE=THISANDFUTURE, every later one. */
export interface Override {
  v: IcsVevent;
  /** The key of the occurrence it replaces (see recurrenceKey). */
  key: string;
  thisAndFuture: boolean;
}

function inWindow(startMs: number, endMs: number | null, context: SeriesContext): boolean {
  return startMs < context.windowEndMs && (endMs ?? startMs) >= context.windowStartMs;
}

/** The event of `v` starting at `start`, or null when it falls outside the window. */
export function emit(
  v: IcsVevent,
  externalId: string,
  start: IcsTime,
  options: {
    ownStart: boolean;
    context: SeriesContext;
    checkWindow: boolean;
    end?: IcsTime | null;
  },
): ReadItem | null {
  const { context } = options;
  const location = context.location(v.line);
  const skip = skipReason(v.component, context.method);
  if (skip) {
    const cancelled = isCancellation(skip) ? { externalId, series: false } : undefined;
    return { kind: "skipped", location, message: `${externalId}: ${skip}`, cancelled };
  }
  const built = buildEvent(
    v.component,
    externalId,
    start,
    options.end ?? endOf(v.component, start, options.ownStart),
    context,
  );
  if (!built.ok) return { kind: "invalid", location, message: built.message };
  if (options.checkWindow) {
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
export function recurrenceKey(
  time: IcsTime,
  property: string,
  context: SeriesContext,
): { ok: true; key: string } | { ok: false; message: string } {
  const instant = instantOf(time, context.defaultZone, property, context.zoneYears);
  return instant.ok ? { ok: true, key: occurrenceStamp(time.time, instant.epochMs) } : instant;
}
