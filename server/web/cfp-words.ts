/** How the site says a call for papers' deadline: "closes in 3 days", "closed 2 hours ago". */
import type { StoredEvent } from "../../shared/api-schemas.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "in 3 days", "tomorrow", "in 5 hours", "2 days ago": the distance from `now` to `at`. */
export function relativeWords(at: Date, now: Date): string {
  const ms = at.getTime() - now.getTime();
  const size = Math.abs(ms);
  // Whole units, rounded towards now: "in 2 days" still holds until 48 hours are left.
  const whole = (unit: number) => Math.sign(ms) * Math.floor(size / unit);
  if (size < HOUR) return relative.format(whole(MINUTE) || Math.sign(ms), "minute");
  if (size < DAY) return relative.format(whole(HOUR), "hour");
  return relative.format(whole(DAY), "day");
}

/** The status of an event's CFP in words, or null without a CFP. */
export function cfpStatusWords(event: StoredEvent, now: Date): string | null {
  if (event.cfp_status === null) return null;
  if (event.cfp_status === "not_yet_open") {
    return event.cfp_opens_at === null
      ? "Not open yet"
      : `Opens ${relativeWords(new Date(event.cfp_opens_at), now)}`;
  }
  // Open through its closing second.
  const closes = event.cfp_closes_at === null ? null : new Date(event.cfp_closes_at);
  if (event.cfp_status === "closed") {
    return closes === null ? "Closed" : `Closed ${relativeWords(closes, now)}`;
  }
  return closes === null
    ? "Open, no deadline given"
    : `Closes ${relativeWords(new Date(closes.getTime() + 999), now)}`;
}
