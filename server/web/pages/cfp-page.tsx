/** `/cfp`: open calls for papers, soonest deadline first, with topic and place filters and feeds. */
import type { FC } from "hono/jsx";
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import { Layout } from "../components/layout.tsx";
import { ContributedLink } from "../components/contributed-link.tsx";
import type { PageContext } from "../page-context.ts";
import { withParams } from "../page-query.ts";
import { cfpStatusWords } from "../cfp-words.ts";
import { formatEventTime } from "../event-times.ts";
import { displayZone } from "../../events/local-times.ts";
import { placeLine } from "../calendar-links.ts";

/** The parameters the page's form sets and its links keep. */
export const CFP_PAGE_PARAMS = ["topic", "city", "country", "q"] as const;

export interface CfpPageProps {
  page: PageContext;
  params: Record<string, string>;
  events: StoredEvent[];
  nextHref: string | null;
  isLaterPage: boolean;
  notices: string[];
  origin: string;
  now: Date;
}

const Field: FC<{ name: string; label: string; value?: string }> = ({ name, label, value }) => (
  <div class="field">
    <label for={`cfp-${name}`}>{label}</label>
    <input type="text" id={`cfp-${name}`} name={name} value={value ?? ""} autocomplete="off" />
  </div>
);

const Filters: FC<{ params: Record<string, string> }> = ({ params }) => (
  <form method="get" action="/cfp" role="search" aria-label="Calls for papers">
    <div class="filters-body">
      <Field name="q" label="Words" value={params.q} />
      <Field name="topic" label="Topic" value={params.topic} />
      <Field name="city" label="City" value={params.city} />
      <Field name="country" label="Country" value={params.country} />
      <div class="span-all">
        <button type="submit">Show calls for papers</button>
      </div>
    </div>
  </form>
);

const Feeds: FC<{ params: Record<string, string>; origin: string }> = ({ params, origin }) => {
  const ics = withParams("/cfp.ics", params);
  return (
    <p class="feeds">
      <span>Deadlines in your calendar:</span>
      <a href={`${origin.replace(/^https?:/, "webcal:")}${ics}`}>Calendar app (webcal)</a>
      <a href={ics}>iCalendar file</a>
      <a href={withParams("/cfp.atom", params)}>Atom feed</a>
    </p>
  );
};

const CfpItem: FC<{ event: StoredEvent; now: Date }> = ({ event, now }) => {
  const place = placeLine(event) || (event.is_virtual ? "Online" : "");
  const zone = displayZone(event.timezone);
  return (
    <li class="card">
      <article>
        <h3>
          <a href={`/events/${event.id}`}>{event.title}</a>
        </h3>
        <p class="cfp-deadline">
          {cfpStatusWords(event, now)}
          {event.cfp_closes_at
            ? (
              <>
                {" · "}
                <time datetime={event.cfp_closes_at} data-zone={zone}>
                  {formatEventTime(event.cfp_closes_at, event.timezone)}
                </time>
              </>
            )
            : null}
        </p>
        <p class="meta">
          <span>
            Event:{" "}
            <time datetime={event.starts_at} data-zone={zone}>
              {formatEventTime(event.starts_at, event.timezone)}
            </time>
          </span>
          {place ? <span>{place}</span> : null}
        </p>
        <p>
          <ContributedLink href={event.cfp_url}>
            Submit a proposal<span class="visually-hidden">to {event.title}</span>
          </ContributedLink>
        </p>
        {event.topics.length > 0
          ? (
            <ul class="badges" aria-label="Topics">
              {event.topics.slice(0, 5).map((t) => <li key={t} class="badge">{t}</li>)}
            </ul>
          )
          : null}
      </article>
    </li>
  );
};

export const CfpPage: FC<CfpPageProps> = (props) => {
  const { page, params, events, origin, now } = props;
  return (
    <Layout
      page={page}
      title="Calls for papers"
      description="Technology conferences and meetups whose calls for papers are open, soonest deadline first."
      head={
        <link
          rel="alternate"
          type="application/atom+xml"
          title="Calls for papers feed"
          href={withParams("/cfp.atom", params)}
        />
      }
    >
      <h1>Calls for papers</h1>
      <p>Events still taking talk proposals, soonest deadline first.</p>
      <Filters params={params} />
      {props.notices.map((notice) => <p key={notice} class="notice" role="status">{notice}</p>)}
      <div class="results-head">
        <h2>Open now</h2>
        <Feeds params={params} origin={origin} />
      </div>
      {events.length === 0
        ? (
          <div class="empty">
            <h3>No open calls for papers found</h3>
            <p>
              {Object.keys(params).length > 0
                ? <a href="/cfp">See every open call for papers</a>
                : "Calls for papers appear here when contributors push events with a cfp_url."}
            </p>
          </div>
        )
        : (
          <ol class="event-list grid">
            {events.map((event) => <CfpItem key={event.id} event={event} now={now} />)}
          </ol>
        )}
      {props.isLaterPage || props.nextHref
        ? (
          <nav class="pager" aria-label="Pages">
            {props.isLaterPage ? <a href={withParams("/cfp", params)}>First page</a> : null}
            {props.nextHref ? <a href={props.nextHref} rel="next">Next page</a> : null}
          </nav>
        )
        : null}
    </Layout>
  );
};
