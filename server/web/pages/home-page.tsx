/** `/`: upcoming events, a search box and filters, results in pages, and feeds of the same. */
import type { FC } from "hono/jsx";
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import { Layout } from "../components/layout.tsx";
import { SearchForm } from "../components/search-form.tsx";
import { EventCard } from "../components/event-card.tsx";
import type { PageContext } from "../page-context.ts";
import { feedParams, withParams } from "../page-query.ts";

/** What the home page shows below the form. */
export interface HomeResults {
  events: StoredEvent[];
  /** Link to the next page of a listing (by cursor) or to more search results. */
  nextHref: string | null;
  /** Whether this is a later page of a listing. */
  isLaterPage: boolean;
  /** "search" when ranked by a query, "list" when soonest first. */
  kind: "search" | "list";
  /** Messages about the query: dropped parameters, AI search falling back to words. */
  notices: string[];
  /**
   * What the search read from the words as filters, the search without them, and the parameters
   * of the search as read (`q` the words left, the filters named): what its feeds and "Save this
   * search" take, so that "online events" saves `attendance=online`, not the words.
   */
  scope?: {
    text: string;
    everywhereHref: string;
    readParams: Record<string, string | undefined>;
  };
}

export interface HomePageProps {
  page: PageContext;
  params: Record<string, string>;
  results: HomeResults;
  aiAvailable: boolean;
  origin: string;
  now: Date;
}

const FILTER_LABELS: Record<string, (v: string) => string> = {
  q: (v) => `“${v}”`,
  city: (v) => `City: ${v}`,
  country: (v) => `Country: ${v}`,
  topic: (v) => `Topic: ${v}`,
  from: (v) => `From ${v}`,
  to: (v) => `To ${v}`,
  is_virtual: (v) => (v === "true" ? "Online" : "In person"),
  attendance: (v) => ({ online: "Online", in_person: "In person", hybrid: "Hybrid" })[v] ?? v,
  is_free: (v) => (v === "true" ? "Free" : "Paid"),
  platform: (v) => `Platform: ${v}`,
  external_id: (v) => `Id: ${v}`,
};

/** Links that each remove one active filter: the empty state's suggestions, and chips. */
const ActiveFilters: FC<{ params: Record<string, string> }> = ({ params }) => {
  const active = Object.keys(FILTER_LABELS).filter((name) => params[name] !== undefined);
  if (active.length === 0) return null;
  return (
    <ul class="active-filters" aria-label="Active filters">
      {active.map((name) => (
        <li key={name}>
          <a
            class="chip"
            href={withParams("/", { ...params, [name]: undefined, cursor: undefined })}
          >
            {FILTER_LABELS[name](params[name])} <span aria-hidden="true">×</span>
            <span class="visually-hidden">(remove)</span>
          </a>
        </li>
      ))}
    </ul>
  );
};

const Feeds: FC<{ params: Record<string, string | undefined>; origin: string }> = (
  { params, origin },
) => {
  const ics = withParams("/events.ics", params);
  const webcal = `${origin.replace(/^https?:/, "webcal:")}${ics}`;
  return (
    <p class="feeds">
      <span>Subscribe:</span>
      <a href={webcal}>Calendar app (webcal)</a>
      <a href={ics}>iCalendar file</a>
      <a href={withParams("/events.atom", params)}>Atom feed</a>
      <a href={withParams("/alerts/new", params)}>Save this search</a>
    </p>
  );
};

const EmptyState: FC<{ params: Record<string, string>; aiAvailable: boolean }> = (
  { params, aiAvailable },
) => {
  const filtered = Object.keys(FILTER_LABELS).some((name) => params[name] !== undefined);
  return (
    <div class="empty">
      <h3>No events found</h3>
      {filtered
        ? (
          <>
            <p>Try removing a filter:</p>
            <ActiveFilters params={params} />
            {params.q && aiAvailable && params.mode === "text"
              ? (
                <p>
                  Or{" "}
                  <a href={withParams("/", { ...params, mode: "hybrid", cursor: undefined })}>
                    search by words and meaning
                  </a>, which also finds events described in other words.
                </p>
              )
              : null}
            <p>
              Or <a href="/">see every upcoming event</a>.
            </p>
          </>
        )
        : <p>No upcoming events yet. Events appear here as soon as contributors push them.</p>}
    </div>
  );
};

export const HomePage: FC<HomePageProps> = (
  { page, params, results, aiAvailable, origin, now },
) => {
  const title = params.q ? `Events matching “${params.q}”` : "Upcoming tech events";
  return (
    <Layout
      page={page}
      title={params.q ? title : "Tech events"}
      description="Upcoming technology events: meetups, conferences and workshops, searchable and subscribable."
      head={
        <link
          rel="alternate"
          type="application/atom+xml"
          title="Events feed"
          href={withParams("/events.atom", feedParams(params))}
        />
      }
    >
      <h1>{title}</h1>
      <SearchForm params={params} aiAvailable={aiAvailable} now={now} />
      {results.notices.map((notice) => <p key={notice} class="notice" role="status">{notice}</p>)}
      {results.scope
        ? (
          <p class="notice" role="status">
            {results.scope.text} · <a href={results.scope.everywhereHref}>search everywhere</a>
          </p>
        )
        : null}
      <div class="results-head">
        <h2>{results.kind === "search" ? "Best matches" : "Soonest first"}</h2>
        <Feeds params={results.scope?.readParams ?? feedParams(params)} origin={origin} />
      </div>
      {results.events.length > 0 ? <ActiveFilters params={params} /> : null}
      {results.events.length === 0
        ? <EmptyState params={params} aiAvailable={aiAvailable} />
        : (
          <ol class="event-list grid">
            {results.events.map((event) => <EventCard key={event.id} event={event} />)}
          </ol>
        )}
      {results.isLaterPage || results.nextHref
        ? (
          <nav class="pager" aria-label="Pages">
            {results.isLaterPage
              ? <a href={withParams("/", { ...params, cursor: undefined })}>First page</a>
              : null}
            {results.nextHref
              ? (
                <a href={results.nextHref} rel="next">
                  {results.kind === "search" ? "More results" : "Next page"}
                </a>
              )
              : null}
          </nav>
        )
        : null}
    </Layout>
  );
};
