/** One event in a list: title, when, where, and what kind. */
import type { FC } from "hono/jsx";
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import { formatEventTime } from "../event-times.ts";
import { displayZone } from "../../events/local-times.ts";
import { placeLine } from "../calendar-links.ts";
import { attendanceText, priceText } from "../event-facts.ts";
import { attendanceOf } from "../../db/attendance.ts";
import { AlsoListed } from "./also-listed.tsx";

/** Short labels shown under an event. */
export function eventBadges(event: StoredEvent): string[] {
  const badges: string[] = [];
  if (attendanceOf(event) !== "in_person") badges.push(attendanceText(event));
  badges.push(priceText(event));
  if (event.event_type) badges.push(event.event_type);
  return badges;
}

export const EventCard: FC<{ event: StoredEvent }> = ({ event }) => {
  const place = placeLine(event) || (event.is_virtual ? "Online" : "");
  return (
    <li class="card">
      <article>
        <h3>
          <a href={`/events/${event.id}`}>{event.title}</a>
        </h3>
        <p class="meta">
          <time datetime={event.starts_at} data-zone={displayZone(event.timezone)}>
            {formatEventTime(event.starts_at, event.timezone)}
          </time>
          {place ? <span>{place}</span> : null}
        </p>
        <ul class="badges" aria-label="Details">
          {eventBadges(event).map((b) => <li key={b} class="badge">{b}</li>)}
          {event.is_sold_out ? <li class="badge warn">Sold out</li> : null}
          {event.cfp_status === "open" ? <li class="badge cfp">CFP open</li> : null}
          {event.topics.slice(0, 5).map((t) => <li key={`t-${t}`} class="badge">{t}</li>)}
        </ul>
        <AlsoListed event={event} />
      </article>
    </li>
  );
};
