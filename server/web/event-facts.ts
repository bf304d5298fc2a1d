/** Plain-language facts about an event, shared by cards, the event page and feeds. */
import type { StoredEvent } from "../../shared/api-schemas.ts";

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

/** How one attends: "Online", "In person", or "In person and online". */
export function attendanceText(event: StoredEvent): string {
  if (event.is_hybrid) return "In person and online";
  return event.is_virtual ? "Online" : "In person";
}
