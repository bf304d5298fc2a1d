/** "Also listed on Meetup, Luma": the other listings of the same real-world event, as links. */
import type { FC } from "hono/jsx";
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import { ContributedLink } from "./contributed-link.tsx";

const PLATFORM_NAMES: Record<StoredEvent["platform"], string | null> = {
  luma: "Luma",
  eventbrite: "Eventbrite",
  meetup: "Meetup",
  ticketmaster: "Ticketmaster",
  ics_feed: null,
  manual: null,
  other: null,
};

/** The name a visitor knows a listing's source by: the platform, else the site's host. */
export function listingSourceName(listing: StoredEvent["duplicates"][number]): string {
  const named = PLATFORM_NAMES[listing.platform];
  if (named) return named;
  try {
    return new URL(listing.source_url).hostname.replace(/^www\./, "");
  } catch {
    return "another site";
  }
}

export const AlsoListed: FC<{ event: StoredEvent }> = ({ event }) =>
  event.duplicates.length === 0 ? null : (
    <p class="hint also-listed">
      Also listed on {event.duplicates.map((d, i) => (
        <>
          {i > 0 ? ", " : null}
          <ContributedLink href={d.source_url}>{listingSourceName(d)}</ContributedLink>
        </>
      ))}
    </p>
  );
