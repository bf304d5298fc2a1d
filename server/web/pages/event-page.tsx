/** `/events/{id}`: every detail of one event, ways to keep it, and events like it. */
import type { FC } from "hono/jsx";
import { raw } from "hono/html";
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import { Layout } from "../components/layout.tsx";
import { ContributedLink } from "../components/contributed-link.tsx";
import { CfpFacts } from "../components/cfp-facts.tsx";
import { AlsoListed } from "../components/also-listed.tsx";
import { EventCard } from "../components/event-card.tsx";
import type { PageContext } from "../page-context.ts";
import { formatEventSpan } from "../event-times.ts";
import { displayZone } from "../../events/local-times.ts";
import { googleCalendarUrl, openStreetMapUrl, placeLine } from "../calendar-links.ts";
import { attendanceText, priceText } from "../event-facts.ts";
import { eventJsonLd, scriptSafeJson } from "../event-json-ld.ts";
import { httpUrl } from "../safe-url.ts";
import { withParams } from "../page-query.ts";

export interface EventPageProps {
  page: PageContext;
  event: StoredEvent;
  similar: StoredEvent[];
  pageUrl: string;
}

const When: FC<{ event: StoredEvent }> = ({ event }) => (
  <>
    <dt>When</dt>
    <dd>
      <time datetime={event.starts_at}>
        {formatEventSpan(event.starts_at, event.ends_at, event.timezone)}
      </time>
      {event.timezone ? <span class="hint note">({event.timezone})</span> : null}
      <span
        class="local-time"
        data-local-time={event.starts_at}
        data-zone={displayZone(event.timezone)}
        hidden
      >
      </span>
    </dd>
  </>
);

const Where: FC<{ event: StoredEvent }> = ({ event }) => {
  const place = placeLine(event);
  const map = openStreetMapUrl(event);
  return (
    <>
      <dt>Where</dt>
      <dd>
        {place || (event.is_virtual ? "Online" : "Place not given")}
        {map
          ? (
            <>
              {" · "}
              <a href={map}>Map (OpenStreetMap)</a>
            </>
          )
          : null}
        <span class="hint note">· {attendanceText(event)}</span>
      </dd>
    </>
  );
};

const Labels: FC<{ title: string; items: string[]; linkTopic?: boolean }> = (
  { title, items, linkTopic },
) =>
  items.length === 0 ? null : (
    <>
      <dt>{title}</dt>
      <dd>
        <ul class="badges">
          {items.map((item) => (
            <li key={item}>
              {linkTopic
                ? <a class="chip" href={withParams("/", { topic: item })}>{item}</a>
                : <span class="chip">{item}</span>}
            </li>
          ))}
        </ul>
      </dd>
    </>
  );

const Facts: FC<{ event: StoredEvent }> = ({ event }) => (
  <dl class="facts">
    <When event={event} />
    <Where event={event} />
    <CfpFacts event={event} now={new Date()} />
    <dt>Price</dt>
    <dd>
      {priceText(event)}
      {event.is_sold_out ? <strong>· Sold out</strong> : null}
    </dd>
    {event.event_type
      ? (
        <>
          <dt>Type</dt>
          <dd>{event.event_type}</dd>
        </>
      )
      : null}
    {event.organiser_name || httpUrl(event.organiser_url)
      ? (
        <>
          <dt>Organiser</dt>
          <dd>
            <ContributedLink href={event.organiser_url}>
              {event.organiser_name ?? httpUrl(event.organiser_url)}
            </ContributedLink>
          </dd>
        </>
      )
      : null}
    {event.attendee_count !== null || event.capacity !== null
      ? (
        <>
          <dt>Attendance</dt>
          <dd>
            {[
              event.attendee_count !== null ? `${event.attendee_count} going` : null,
              event.capacity !== null ? `${event.capacity} places` : null,
            ].filter(Boolean).join(" · ")}
          </dd>
        </>
      )
      : null}
    <Labels title="Topics" items={event.topics} linkTopic />
    <Labels title="Tags" items={event.tags} />
    <Labels title="Categories" items={event.categories} />
  </dl>
);

const KeepIt: FC<{ event: StoredEvent; pageUrl: string }> = ({ event, pageUrl }) => (
  <aside class="aside stack" aria-labelledby="keep-heading">
    <h2 id="keep-heading">Add to your calendar</h2>
    <div class="actions">
      <a class="button" href={`/events/${event.id}/calendar.ics`}>Download .ics</a>
      <a class="button secondary" href={googleCalendarUrl(event, pageUrl)}>Google Calendar</a>
    </div>
    <p>
      <ContributedLink href={event.source_url}>Original event page</ContributedLink>
      {event.platform === "other" || event.platform === "manual"
        ? null
        : <span class="hint note">· listed on {event.platform}</span>}
    </p>
    <AlsoListed event={event} />
  </aside>
);

export const EventPage: FC<EventPageProps> = ({ page, event, similar, pageUrl }) => {
  const cover = httpUrl(event.cover_image_url);
  return (
    <Layout
      page={page}
      title={event.title}
      description={(event.description ?? event.title).slice(0, 160)}
      head={
        <>
          <link rel="canonical" href={pageUrl} />
          <script type="application/ld+json">
            {raw(scriptSafeJson(eventJsonLd(event, pageUrl)))}
          </script>
        </>
      }
    >
      <div class="event-page">
        <article class="stack">
          {cover
            ? <img class="cover" src={cover} alt="" referrerpolicy="no-referrer" loading="lazy" />
            : null}
          <h1>{event.title}</h1>
          <Facts event={event} />
          {event.description
            ? (
              <section aria-labelledby="about-heading">
                <h2 id="about-heading">About</h2>
                <p class="description">{event.description}</p>
              </section>
            )
            : null}
        </article>
        <KeepIt event={event} pageUrl={pageUrl} />
      </div>
      {similar.length > 0
        ? (
          <section aria-labelledby="similar-heading">
            <h2 id="similar-heading">Similar events</h2>
            <ol class="event-list grid">
              {similar.map((e) => <EventCard key={e.id} event={e} />)}
            </ol>
          </section>
        )
        : null}
    </Layout>
  );
};
