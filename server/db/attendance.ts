/**
 * How one attends an event, from its `is_virtual` and `is_hybrid` fields: the label shown for an
 * event and the filter that finds events by it, side by side so that they cannot disagree.
 */
import type { Fragment, Sql } from "postgres";

export const ATTENDANCE = ["online", "in_person", "hybrid"] as const;
export type Attendance = typeof ATTENDANCE[number];

/** An event's label: hybrid when it says so, else online when virtual, else in person. */
export function attendanceOf(
  event: { is_virtual: boolean; is_hybrid: boolean | null },
): Attendance {
  if (event.is_hybrid === true) return "hybrid";
  return event.is_virtual ? "online" : "in_person";
}

/**
 * Events one can attend that way: `online` and `in_person` include hybrid events (they can be
 * joined either way); `hybrid` is hybrid events only.
 */
export function attendanceCondition(sql: Sql, attendance: Attendance): Fragment {
  switch (attendance) {
    case "hybrid":
      return sql`e.is_hybrid IS TRUE`;
    case "online":
      return sql`(e.is_virtual OR e.is_hybrid IS TRUE)`;
    case "in_person":
      return sql`(NOT e.is_virtual OR e.is_hybrid IS TRUE)`;
  }
}
