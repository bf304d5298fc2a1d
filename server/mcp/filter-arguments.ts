/**
 * The filter arguments the search tools share (place, time, attendance, price, topic, distance),
 * their descriptions for a language model, and their translation into the filters of the shared
 * search code.
 */
import { z } from "zod";
import {
  dayBounds,
  isDateOnly,
  isIanaTimeZone,
  parseDateTime,
  zonedWallTimeToEpochMs,
} from "../../shared/zoned-time.ts";
import { ATTENDANCE } from "../db/attendance.ts";
import type { EventFilters } from "../db/event-filters.ts";
import { WHEN_PHRASES, whenPeriod } from "../search/when-period.ts";
import { ToolCallError } from "./tool-results.ts";
import { hasNul, nulMessage } from "../../shared/storable-text.ts";

/** A trimmed, non-empty string PostgreSQL can hold, with messages naming the argument. */
export const textArgument = (name: string, max: number) =>
  z.string({ error: () => `${name} must be a string` }).trim()
    .min(1, { error: `${name} must not be empty: leave it out instead` })
    .max(max, { error: `${name} may be at most ${max} characters` })
    .refine((s) => !hasNul(s), { error: nulMessage(name) });

const dateArgument = (name: string, example: string) =>
  z.string({ error: () => `${name} must be a string` }).max(64, {
    error: `${name} must be a date such as ${
      example.slice(0, 10)
    } or a date-time such as ${example}`,
  });

const NearArgument = z.strictObject({
  latitude: z.number({ error: () => "near.latitude must be a number from -90 to 90" })
    .min(-90, { error: "near.latitude must be from -90 to 90" })
    .max(90, { error: "near.latitude must be from -90 to 90" })
    .describe("Latitude of the centre in decimal degrees, -90 to 90 (Lisbon: 38.72)."),
  longitude: z.number({ error: () => "near.longitude must be a number from -180 to 180" })
    .min(-180, { error: "near.longitude must be from -180 to 180" })
    .max(180, { error: "near.longitude must be from -180 to 180" })
    .describe("Longitude of the centre in decimal degrees, -180 to 180 (Lisbon: -9.14)."),
  radius_km: z.number({ error: () => "near.radius_km must be a number of kilometres" })
    .gt(0, { error: "near.radius_km must be more than 0" })
    .max(1000, { error: "near.radius_km may be at most 1000" })
    .default(50)
    .describe("Radius in kilometres, up to 1000; default 50."),
}, {
  error: (issue) =>
    issue.code === "unrecognized_keys"
      ? `near takes only latitude, longitude and radius_km; remove ${issue.keys.join(", ")}`
      : undefined,
});

/** The filter arguments, each described for a language model. */
export const filterArguments = {
  city: textArgument("city", 100).optional().describe(
    'City, as events name it ("Berlin"); case does not matter. list_facets shows the cities ' +
      "that have events.",
  ),
  country: textArgument("country", 100).optional().describe(
    'Country, as events name it ("Germany"); case does not matter. See list_facets.',
  ),
  topic: textArgument("topic", 100).optional().describe(
    'One topic label ("rust", "machine learning"); case does not matter. See list_facets.',
  ),
  when: z.enum(WHEN_PHRASES, {
    error: () => `when must be one of ${WHEN_PHRASES.join(", ")}`,
  }).optional().describe(
    "A period in the asker's time zone (see timezone): today, this_week (Monday to Sunday), " +
      "this_weekend, next_week, this_month or next_month. Only events not yet over are shown. " +
      "Do not combine with from or to.",
  ),
  from: dateArgument("from", "2027-03-01T09:00:00+01:00").optional().describe(
    "Only events ending at or after this: a date (2027-03-01, midnight in timezone) or a " +
      "date-time with offset (2027-03-01T09:00:00Z). With from, past events can be found too; " +
      "without from and when, only events not yet over.",
  ),
  to: dateArgument("to", "2027-03-31T18:00:00+01:00").optional().describe(
    "Only events starting at or before this: a date (the whole day, in timezone) or a " +
      "date-time with offset.",
  ),
  updated_since: dateArgument("updated_since", "2027-03-01T09:00:00Z").optional().describe(
    "Only events created or changed at or after this date (midnight in timezone) or " +
      "date-time: what is new since the asker last looked. Deleted events are not shown.",
  ),
  timezone: textArgument("timezone", 64).optional().describe(
    "The asker's IANA time zone (Europe/Lisbon, America/New_York), used for when and for " +
      "dates without a time. Default UTC.",
  ),
  online: z.enum(ATTENDANCE, {
    error: () => `online must be one of ${ATTENDANCE.join(", ")}`,
  }).optional().describe(
    "How the asker wants to attend: online (online events and hybrid ones), in_person " +
      "(in-person and hybrid events) or hybrid (only events that are both).",
  ),
  free: z.boolean({ error: () => "free must be true or false" }).optional().describe(
    "true: only free events; false: only paid ones.",
  ),
  collapse: z.boolean({ error: () => "collapse must be true or false" }).optional().describe(
    "true (default): one result per real-world event, however many contributors or platforms " +
      "list it; false: every listing.",
  ),
  cfp: z.enum(["open", "any"], { error: () => 'cfp must be "open" or "any"' }).optional()
    .describe(
      "Calls for papers (talk proposals): open = only events whose CFP is open now (opened, " +
        "deadline not passed), the way to find where a speaker can still submit; any = events " +
        "with a CFP at all. Each result gives cfp_url, cfp_closes_at and cfp_status.",
    ),
  cfp_closes_before: dateArgument("cfp_closes_before", "2027-03-31T23:59:59Z").optional()
    .describe(
      "Only CFPs closing strictly before this: a date (the whole day, in timezone) or a " +
        "date-time with offset.",
    ),
  cfp_closes_after: dateArgument("cfp_closes_after", "2027-03-01T00:00:00Z").optional()
    .describe(
      "Only CFPs closing strictly after this: a date (from its start, in timezone) or a " +
        "date-time with offset.",
    ),
  near: NearArgument.optional().describe(
    "Only events with coordinates within radius_km of a point (great-circle distance). Events " +
      "without coordinates (most online events) never match. Example: " +
      '{"latitude": 38.72, "longitude": -9.14, "radius_km": 30}.',
  ),
};

type FilterArguments = {
  [K in keyof typeof filterArguments]?: z.output<typeof filterArguments[K]>;
};

/** The period a `when` phrase was read as, reported back so the assistant can say it. */
export interface AppliedPeriod {
  when: string;
  timezone: string;
  from: string;
  to: string;
}

/** The shared search filters for the arguments; a wrong combination is a ToolCallError. */
export function toEventFilters(
  args: FilterArguments,
  now: Date,
): { filters: Omit<EventFilters, "q">; period: AppliedPeriod | null } {
  const timeZone = args.timezone ?? "UTC";
  if (!isIanaTimeZone(timeZone)) {
    throw new ToolCallError(
      `timezone ${JSON.stringify(timeZone)} is not an IANA time zone name: use a name such as ` +
        "Europe/Berlin, America/New_York or UTC",
    );
  }
  const filters: Omit<EventFilters, "q"> = {
    city: args.city,
    country: args.country,
    topic: args.topic,
    is_free: args.free,
    attendance: args.online,
    near: args.near,
    collapse: args.collapse,
    cfp: args.cfp,
  };
  if (args.cfp_closes_before !== undefined) {
    filters.cfp_closes_before = instant(
      "cfp_closes_before",
      args.cfp_closes_before,
      timeZone,
      true,
    );
  }
  if (args.cfp_closes_after !== undefined) {
    filters.cfp_closes_after = instant("cfp_closes_after", args.cfp_closes_after, timeZone, false);
  }
  let period: AppliedPeriod | null = null;
  if (args.when !== undefined) {
    if (args.from !== undefined || args.to !== undefined) {
      throw new ToolCallError("Give either when or from/to, not both: remove when or from and to");
    }
    const p = whenPeriod(args.when, { now, timeZone });
    filters.from = new Date(Math.max(now.getTime(), p.start.getTime()));
    filters.to = new Date(p.end.getTime() - 1);
    period = {
      when: args.when,
      timezone: timeZone,
      from: p.start.toISOString(),
      to: p.end.toISOString(),
    };
  }
  if (args.from !== undefined) filters.from = instant("from", args.from, timeZone, false);
  if (args.to !== undefined) filters.to = instant("to", args.to, timeZone, true);
  if (args.updated_since !== undefined) {
    filters.updated_since = instant("updated_since", args.updated_since, timeZone, false);
  }
  if (filters.from && filters.to && filters.from > filters.to) {
    throw new ToolCallError("from is after to: swap them, or widen the range");
  }
  return {
    filters: Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)),
    period,
  };
}

/** A date (midnight, or the day's last millisecond for `to`, in the zone) or a date-time. */
function instant(name: string, text: string, timeZone: string, endOfDay: boolean): Date {
  let epochMs: number | null = null;
  if (isDateOnly(text)) {
    const day = dayBounds(text, timeZone);
    if (day) epochMs = endOfDay ? day.endMs : day.startMs;
  } else {
    const parsed = parseDateTime(text);
    if (parsed.kind === "instant") epochMs = parsed.epochMs;
    // A wall time without offset is read in the asker's zone, as a date is.
    if (parsed.kind === "local") epochMs = zonedWallTimeToEpochMs(parsed.wall, timeZone);
  }
  // Years 1-9999, as everywhere else in the API (PostgreSQL's range is wider).
  const year = epochMs === null ? 0 : new Date(epochMs).getUTCFullYear();
  if (epochMs !== null && year >= 1 && year <= 9999) return new Date(epochMs);
  throw new ToolCallError(
    `${name} ${JSON.stringify(text)} is not a date or date-time: use 2027-03-01 or ` +
      "2027-03-01T09:00:00Z (or an offset such as +01:00)",
  );
}
