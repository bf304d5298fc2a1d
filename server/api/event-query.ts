/** The query string of GET /api/v1/events (and the search endpoint's shared filters). */
import { z } from "zod";
import { PLATFORMS } from "../../shared/event-schema.ts";
import { dateTimeProblemMessage } from "../../shared/event-times.ts";
import { ATTENDANCE } from "../db/attendance.ts";
import {
  type DateTimeProblem,
  dayBounds,
  isDateOnly,
  parseDateTime,
} from "../../shared/zoned-time.ts";
import { toValidationDetails } from "../../shared/validation-details.ts";
import type { EventFilters } from "../db/event-filters.ts";
import { LIST_ORDERS, type ListCursor, type ListOrder } from "../db/event-reads.ts";
import { validationError } from "../errors.ts";
import { decodeListCursor, encodeListCursor } from "../events/list-cursor.ts";
import { nearFilterOf, nearQueryShape, radiusNeedsNear } from "./near-query.ts";
import { hasNul, nulMessage } from "../../shared/storable-text.ts";

/** An optional free-text parameter. */
export const text = (field: string) =>
  z.string().trim().min(1, { message: `${field} must not be empty` }).max(500)
    .refine((s) => !hasNul(s), { message: nulMessage(field) })
    // Said in the document too, so that clients (and fuzzers) know blank text is refused.
    .meta({ pattern: NOT_BLANK })
    .optional();

/** At least one character besides spaces, and no NUL. */
export const NOT_BLANK = "^[^\\u0000]*\\S[^\\u0000]*$";

const flag = (field: string) =>
  z.enum(["true", "false"], { error: () => `${field} must be true or false` })
    .optional().transform((v) => (v === undefined ? undefined : v === "true"))
    .meta({ type: "boolean" });

/** `from`/`to`: an ISO date-time with offset, or a date (UTC); `to` as a date covers that day. */
const instant = (field: string, endOfDay: boolean) =>
  z.string().meta({ pattern: INSTANT_PATTERN, example: "2026-05-01" }).optional().transform(
    (v, ctx) => {
      if (v === undefined) return undefined;
      const day = dayBounds(v, "UTC");
      if (day) return new Date(endOfDay ? day.endMs : day.startMs);
      // A date that does not exist (February 30) has the form of one.
      const parsed = isDateOnly(v)
        ? { kind: "invalid" as const, reason: "calendar" as const }
        : parseDateTime(v);
      if (parsed.kind === "instant") return new Date(parsed.epochMs);
      ctx.addIssue({
        code: "custom",
        message: instantProblem(field, v, parsed.kind === "local" ? "local" : parsed.reason),
      });
      return z.NEVER;
    },
  );

/**
 * The forms `instant` reads, for the document: a date, or a date-time with seconds and fraction
 * optional and an offset required. The calendar (February 30) and the year range are checked by
 * the parser and explained in the 400.
 */
const INSTANT_PATTERN = "^(?!0000)\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])" +
  "([Tt ]([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d([.,]\\d{1,9})?)?" +
  "([Zz]|[+-]([01]\\d|2[0-3])(:?[0-5]\\d)?))?$";

const INSTANT_FORMS = "a date (2026-05-01) or a date-time with offset (2026-05-01T09:00:00Z)";

function instantProblem(field: string, value: string, reason: DateTimeProblem | "local"): string {
  if (reason === "calendar" || reason === "offset" || reason === "range") {
    return dateTimeProblemMessage(field, value, reason);
  }
  if (reason === "local") {
    return `${field} ${JSON.stringify(value)} has no UTC offset: add Z or an offset such as +02:00`;
  }
  return `${field} must be ${INSTANT_FORMS}`;
}

/** `limit`: a whole number from 1 to `max`, `fallback` when absent. */
export function pageSize(options: { max: number; fallback: number }) {
  const { max, fallback } = options;
  return z.string().optional().transform((v, ctx) => {
    if (v === undefined) return fallback;
    const n = Number(v);
    if (v.trim() === "" || !Number.isInteger(n) || n < 1 || n > max) {
      ctx.addIssue({ code: "custom", message: `limit must be a whole number from 1 to ${max}` });
      return z.NEVER;
    }
    return n;
  }).meta({
    type: "integer",
    minimum: 1,
    maximum: max,
    default: fallback,
    description: `Page size, 1 to ${max}.`,
  });
}

const cursor = z.string().optional().transform((v, ctx): ListCursor | undefined => {
  if (v === undefined) return undefined;
  const decoded = decodeListCursor(v);
  if (decoded) return decoded;
  ctx.addIssue({ code: "custom", message: "cursor is not one this API issued: use next_cursor" });
  return z.NEVER;
});

/** Filters plus paging. */
export const eventQueryShape = {
  q: text("q").meta({
    description: "Full-text query in web-search syntax: quoted phrases, `or`, `-word` to exclude.",
  }),
  city: text("city").meta({ description: "City, case-insensitive." }),
  country: text("country").meta({ description: "Country, case-insensitive." }),
  from: instant("from", false).meta({
    description: "Events not ended before this date (2026-05-01, UTC) or date-time with offset " +
      "(2026-05-01T09:00:00+02:00). With `from`, past events are listed too.",
  }),
  to: instant("to", true).meta({
    description: "Events starting at or before this date (the whole day, UTC) or date-time with " +
      "offset.",
  }),
  platform: z.enum(PLATFORMS, {
    error: () => `platform must be one of ${PLATFORMS.join(", ")}`,
  }).optional().meta({ description: "Platform the event came from." }),
  external_id: text("external_id").meta({ description: "The contributor's identifier." }),
  is_virtual: flag("is_virtual").meta({ description: "Online events (true) or not (false)." }),
  attendance: z.enum(ATTENDANCE, {
    error: () => `attendance must be one of ${ATTENDANCE.join(", ")}`,
  }).optional().meta({
    description: "How one can attend. Hybrid events count as online and as in person; " +
      "`hybrid` alone means both.",
  }),
  is_free: flag("is_free").meta({ description: "Free events (true) or paid ones (false)." }),
  topic: text("topic").meta({ description: "One topic, case-insensitive." }),
  collapse: flag("collapse").meta({
    description: "One entry per real-world event (true, the default): listings of the same " +
      "event by several contributors or platforms show once, as the group's canonical event, " +
      "the others in its `duplicates`. false lists every listing.",
  }),
  updated_since: instant("updated_since", false).meta({
    description: "Only events created or changed at or after this date (UTC) or date-time with " +
      "offset: what is new since a client last looked. Deleted events are not shown.",
  }),
  ...nearQueryShape,
  cfp: z.enum(["open", "any"], { error: () => "cfp must be open or any" }).optional().meta({
    description: "Events with a call for papers (`any`), or one open now (`open`: opened and " +
      "not yet past its deadline). With `open`, listings sort by deadline unless `sort` says " +
      "otherwise.",
  }),
  cfp_closes_before: instant("cfp_closes_before", true).meta({
    description: "Events whose call for papers closes strictly before this instant; a date " +
      "means the end of that day (UTC), as `to` reads it.",
  }),
  cfp_closes_after: instant("cfp_closes_after", false).meta({
    description: "Events whose call for papers closes strictly after this instant; a date " +
      "means the start of that day (UTC), as `from` reads it.",
  }),
  limit: pageSize({ max: 100, fallback: 20 }),
  cursor: cursor.meta({ description: "The next_cursor of the previous page." }),
};

/** `sort` of a listing: its default follows `cfp` (listOrderOf). */
export const sortParameter = z.enum(LIST_ORDERS, {
  error: () => `sort must be one of ${LIST_ORDERS.join(", ")}`,
}).optional().meta({
  description: "starts_at: soonest start first (the default). cfp_closes_at: events with a call " +
    "for papers, soonest deadline first, those without a deadline last (the default with " +
    "cfp=open).",
});

/** The order a listing query asks for: `sort`, else by deadline with cfp=open, else by start. */
export function listOrderOf(q: { sort?: ListOrder; cfp?: "open" | "any" }): ListOrder {
  return q.sort ?? (q.cfp === "open" ? "cfp_closes_at" : "starts_at");
}

/** A cursor is only good for the order that issued it. */
function cursorFitsOrder(
  q: { sort?: ListOrder; cfp?: "open" | "any"; cursor?: ListCursor },
  ctx: z.RefinementCtx,
) {
  if (q.cursor === undefined) return;
  const byDeadline = listOrderOf(q) === "cfp_closes_at";
  if (byDeadline !== (q.cursor.cfp_closes_at !== undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["cursor"],
      message: `cursor belongs to a listing in another order: pass the sort and cfp of the ` +
        "listing that gave it, or start again without cursor",
    });
  }
}

export const EventListQuery = z.strictObject({ ...eventQueryShape, sort: sortParameter })
  .superRefine(radiusNeedsNear)
  .superRefine(cursorFitsOrder);

/** Encodes a cursor for `next_cursor`. */
export function encodeCursor(c: ListCursor | null): string | null {
  return c === null ? null : encodeListCursor(c);
}

/** Parses query parameters with a schema, turning problems into a 400 naming each parameter. */
export function parseQuery<T extends z.ZodType>(
  schema: T,
  query: Record<string, string>,
): z.output<T> {
  const parsed = schema.safeParse(query);
  if (!parsed.success) {
    throw validationError(
      toValidationDetails(parsed.error.issues, { root: "query string" })
        .map((d) => ({ ...d, path: ["query", ...d.path] })),
    );
  }
  return parsed.data;
}

/** The filters part of a parsed query. */
export function filtersOf(
  q: Omit<z.output<typeof EventListQuery>, "sort"> & { sort?: ListOrder },
): EventFilters {
  const { limit: _limit, cursor: _cursor, sort: _sort, near, radius_km, ...rest } = q;
  const filters = { ...rest, near: nearFilterOf({ near, radius_km }) };
  return Object.fromEntries(
    Object.entries(filters).filter(([, v]) => v !== undefined),
  ) as EventFilters;
}
