/**
 * What CSV, JSON and NDJSON records get before the schema sees them: dates without a time become
 * all-day events (as ICS all-day events do), and `--id-from` makes an external_id.
 */
import { createHash } from "node:crypto";
import { isDateOnly, parseDate } from "../../shared/zoned-time.ts";

const DAY_MS = 86_400_000;

function dateOnly(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  return isDateOnly(text) && parseDate(text).kind === "date" ? text : null;
}

function impossibleDate(field: string, value: unknown): string | null {
  if (typeof value !== "string" || !isDateOnly(value.trim())) return null;
  if (parseDate(value.trim()).kind === "date") return null;
  return `${field} ${JSON.stringify(value.trim())} is not a real date: check the day of the month`;
}

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/**
 * Reads date-only times as an all-day event: from midnight of the start date to midnight after the
 * end date (conference lists give the last day, not the day after), or for one day without an end.
 * Midnight is in the record's timezone, or UTC when it has none, like an ICS all-day event.
 * Returns why a date-only value cannot be read (February 30), or null.
 */
export function readAllDay(event: Record<string, unknown>): string | null {
  const impossible = impossibleDate("starts_at", event.starts_at) ??
    impossibleDate("ends_at", event.ends_at);
  if (impossible) return impossible;
  const start = dateOnly(event.starts_at);
  const end = dateOnly(event.ends_at);
  if (start === null && end === null) return null;
  const zoned = typeof event.timezone === "string" && event.timezone.trim() !== "";
  const midnight = (date: string) => `${date}T00:00:00${zoned ? "" : "Z"}`;
  if (start !== null) {
    event.starts_at = midnight(start);
    const noEnd = event.ends_at === undefined || event.ends_at === null || event.ends_at === "";
    if (noEnd) event.ends_at = midnight(nextDay(start));
  }
  if (end !== null) event.ends_at = midnight(nextDay(end));
  return null;
}

/**
 * Sets external_id from the values of `fields` when the record has none: a digest, so that the
 * same row gives the same id in every export. Returns why it cannot, or null.
 */
export function deriveExternalId(event: Record<string, unknown>, fields: string[]): string | null {
  const own = event.external_id;
  if (own !== undefined && own !== null && String(own).trim() !== "") return null;
  const values: string[] = [];
  for (const field of fields) {
    const value = event[field];
    const text = value === undefined || value === null
      ? ""
      : typeof value === "string"
      ? value.trim()
      : JSON.stringify(value);
    if (text === "") {
      return `cannot make external_id: ${field} is empty (--id-from ${fields.join(",")})`;
    }
    values.push(text);
  }
  const digest = createHash("sha256").update(values.join("\u001f")).digest("hex");
  event.external_id = `id-${digest.slice(0, 32)}`;
  return null;
}
