/** Plain-language facts about an event, shared by cards, the event page and feeds. */
import type { StoredEvent } from "../../shared/api-schemas.ts";
import { type Attendance, attendanceOf } from "../db/attendance.ts";

function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en-GB", { style: "currency", currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** "Free", "€15", "€10 – €40", or "Paid" when no price is given. */
export function priceText(event: StoredEvent): string {
  if (event.is_free) return "Free";
  const { price_min: min, price_max: max, currency } = event;
  if (min !== null && max !== null && min !== max) {
    return `${money(min, currency)} – ${money(max, currency)}`;
  }
  const one = min ?? max;
  return one === null ? "Paid" : money(one, currency);
}

const ATTENDANCE_TEXT: Record<Attendance, string> = {
  online: "Online",
  in_person: "In person",
  hybrid: "In person and online",
};

/** How one attends: "Online", "In person", or "In person and online" (the shared rule). */
export function attendanceText(event: StoredEvent): string {
  return ATTENDANCE_TEXT[attendanceOf(event)];
}
