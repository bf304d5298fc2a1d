/** An event's call for papers on its page: status, deadline and where to submit. */
import type { FC } from "hono/jsx";
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import { displayZone } from "../../events/local-times.ts";
import { cfpStatusWords } from "../cfp-words.ts";
import { formatEventTime } from "../event-times.ts";
import { ContributedLink } from "./contributed-link.tsx";

/** A `<dt>`/`<dd>` pair for a facts list; nothing when the event has no CFP. */
export const CfpFacts: FC<{ event: StoredEvent; now: Date }> = ({ event, now }) => {
  const status = cfpStatusWords(event, now);
  if (status === null) return null;
  return (
    <>
      <dt>Call for papers</dt>
      <dd class="cfp">
        <strong>{status}</strong>
        {event.cfp_closes_at
          ? (
            <>
              {" · deadline "}
              <time datetime={event.cfp_closes_at} data-zone={displayZone(event.timezone)}>
                {formatEventTime(event.cfp_closes_at, event.timezone)}
              </time>
            </>
          )
          : null}
        {" · "}
        <ContributedLink href={event.cfp_url}>Submit a proposal</ContributedLink>
      </dd>
    </>
  );
};
