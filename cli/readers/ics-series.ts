/**
 * Turns every VEVENT sharing one UID into events: picks the newest version of each (SEQUENCE),
 * expands a recurring master within the horizon under a budget, applies RECURRENCE-ID overrides
 * (RANGE=THISANDFUTURE ones to every later occurrence too) and EXDATEs.
 */
import ICAL from "ical.js";
import type { ReadItem } from "./record.ts";
import { isCancellation, skipReason, timeProperty } from "./ics-event.ts";
import type { IcsTime } from "./ics-times.ts";
import { zoneOffsetMs } from "../../shared/zoned-time.ts";
import { expandMaster } from "./ics-expand-master.ts";
import {
  emit,
  type IcsVevent,
  type Override,
  recurrenceKey,
  type SeriesContext,
} from "./ics-instance.ts";

export type { IcsVevent, SeriesContext };

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

function isRecurring(v: IcsVevent): boolean {
  return v.rules.length > 0 || v.component.hasProperty("rdate");
}

/**
 * The key of an override's RECURRENCE-ID. Outlook writes a date-time RECURRENCE-ID for an
 * occurrence of an all-day series: it names that occurrence's date (in the calendar's zone when
 * written in UTC), so it is matched by date.
 */
function overrideKey(
  recurrenceId: IcsTime,
  master: IcsVevent | null,
  context: SeriesContext,
): { ok: true; key: string } | { ok: false; message: string } {
  const allDaySeries = master !== null &&
    (timeProperty(master.component, "dtstart")?.time.isDate ?? false);
  if (!allDaySeries || recurrenceId.time.isDate) {
    return recurrenceKey(recurrenceId, "RECURRENCE-ID", context);
  }
  let { year, month, day } = recurrenceId.time;
  if (recurrenceId.time.zone === ICAL.Timezone.utcTimezone && context.defaultZone !== null) {
    const epochMs = recurrenceId.time.toUnixTime() * 1000;
    const local = new Date(epochMs + zoneOffsetMs(context.defaultZone, epochMs));
    [year, month, day] = [local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate()];
  }
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return { ok: true, key: `${pad(year, 4)}${pad(month)}${pad(day)}` };
}

function isThisAndFuture(v: IcsVevent): boolean {
  const range = v.component.getFirstProperty("recurrence-id")?.getParameter("range");
  return typeof range === "string" && range.toUpperCase() === "THISANDFUTURE";
}

/** All events of one UID, in start order for a series. */
export function* expandSeries(
  uid: string,
  vevents: IcsVevent[],
  context: SeriesContext,
): Generator<ReadItem> {
  for (const v of vevents) {
    for (const message of v.warnings) {
      yield { kind: "warning", location: context.location(v.line), message: `${uid}: ${message}` };
    }
  }
  let master: IcsVevent | null = null;
  for (const v of vevents) {
    if (timeProperty(v.component, "recurrence-id") !== null) continue;
    const kept: IcsVevent = master === null ? v : newest(master, v);
    if (master !== null) yield superseded(kept === v ? master : v, kept, context);
    master = kept;
  }
  const overrides = new Map<string, Override>();
  for (const v of vevents) {
    const recurrenceId = timeProperty(v.component, "recurrence-id");
    if (recurrenceId === null) continue;
    const recurrence = overrideKey(recurrenceId, master, context);
    if (!recurrence.ok) {
      yield { kind: "invalid", location: context.location(v.line), message: recurrence.message };
      continue;
    }
    const previous = overrides.get(recurrence.key);
    const kept = previous === undefined ? v : newest(previous.v, v);
    if (previous !== undefined) yield superseded(kept === v ? previous.v : v, kept, context);
    overrides.set(recurrence.key, {
      v: kept,
      key: recurrence.key,
      thisAndFuture: isThisAndFuture(kept),
    });
  }

  if (master !== null && !isRecurring(master)) {
    yield* single(uid, master, overrides, context);
  } else if (master !== null) {
    const masterSkip = skipReason(master.component, context.method);
    if (masterSkip) {
      yield {
        kind: "skipped",
        location: context.location(master.line),
        message: `${uid}: ${masterSkip} (whole series)`,
        cancelled: isCancellation(masterSkip) ? { externalId: uid, series: true } : undefined,
      };
      return;
    }
    const expanded = expandMaster(uid, master, overrides, context);
    yield* expanded.items;
    // A series that could not be expanded is reported once, with nothing of it sent.
    if (!expanded.ok) return;
  }
  const expandedSeries = master !== null && isRecurring(master);
  // Overrides that matched no generated occurrence are instances in their own right; except a
  // RANGE=THISANDFUTURE one of a series, which has already changed the occurrences after its
  // RECURRENCE-ID (ical.js does the same): as an event of its own it would be one too many.
  for (const [key, { v, thisAndFuture }] of overrides) {
    if (thisAndFuture && expandedSeries) {
      yield {
        kind: "warning",
        location: context.location(v.line),
        message: `${uid}: RECURRENCE-ID;RANGE=THISANDFUTURE ${key} matches no occurrence of the ` +
          "series: it changes the later occurrences only, and is not an event of its own",
      };
      continue;
    }
    const start = timeProperty(v.component, "dtstart") as IcsTime;
    const item = emit(v, `${uid}#${key}`, start, { ownStart: true, context, checkWindow: true });
    if (item) yield item;
  }
}

/** A VEVENT that does not recur: itself, or the override that replaces it. */
function* single(
  uid: string,
  master: IcsVevent,
  overrides: Map<string, Override>,
  context: SeriesContext,
): Generator<ReadItem> {
  const start = timeProperty(master.component, "dtstart") as IcsTime;
  // An unreadable DTSTART matches no override; building the event below reports it.
  const own = recurrenceKey(start, "DTSTART", context);
  const replacement = own.ok ? overrides.get(own.key)?.v : undefined;
  if (replacement && own.ok) overrides.delete(own.key);
  const chosen = replacement ?? master;
  const item = emit(chosen, uid, timeProperty(chosen.component, "dtstart") as IcsTime, {
    ownStart: true,
    context,
    checkWindow: false,
  });
  if (item) yield item;
}
