/** "My alerts": the viewer's saved searches, their channels and latest deliveries; and saving one. */
import type { FC } from "hono/jsx";
import { CsrfField, Layout } from "../components/layout.tsx";
import { FormProblems } from "../components/form-problems.tsx";
import type { PageContext } from "../page-context.ts";
import type { Viewer } from "../../accounts/viewer.ts";
import type { RecentDelivery } from "../../db/alert-deliveries.ts";
import type { SavedSearchRecord } from "../../db/saved-searches.ts";

/** A saved search with what the page shows of it. */
export interface AlertRow {
  search: SavedSearchRecord;
  feedIcs: string;
  feedAtom: string;
  deliveries: RecentDelivery[];
}

export interface AlertsPageProps {
  page: PageContext;
  viewer: Viewer;
  rows: AlertRow[];
  emailConfirmed: boolean;
  mailAvailable: boolean;
  notices: string[];
}

function describe(search: SavedSearchRecord): string {
  const parts = [
    search.q ? `“${search.q}”` : null,
    ...Object.entries(search.filters).map(([name, value]) => `${name}: ${value}`),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(" · ") : "Every event";
}

const Action: FC<{ viewer: Viewer; id: string; action: string; label: string; name: string }> = (
  { viewer, id, action, label, name },
) => (
  <form method="post" action={`/alerts/searches/${id}/${action}`} class="inline">
    <CsrfField token={viewer.csrfToken} />
    <button type="submit" aria-label={`${label}: ${name}`}>{label}</button>
  </form>
);

const Deliveries: FC<{ deliveries: RecentDelivery[] }> = ({ deliveries }) =>
  deliveries.length === 0 ? <p>Nothing delivered yet.</p> : (
    <table>
      <caption class="visually-hidden">Latest deliveries</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">What</th>
          <th scope="col">Channel</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((d) => (
          <tr key={`${d.notice_id}-${d.channel}`}>
            <td>{d.created_at.toISOString().slice(0, 16).replace("T", " ")} UTC</td>
            <td>{d.kind}</td>
            <td>{d.channel}</td>
            <td>{d.status}{d.last_result ? ` (${d.last_result})` : ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );

const AlertCard: FC<{ viewer: Viewer; row: AlertRow }> = ({ viewer, row }) => {
  const { search } = row;
  const headingId = `alert-${search.id}`;
  return (
    <li class="stack">
      <section aria-labelledby={headingId} class="stack">
        <h3 id={headingId}>{search.name}</h3>
        <p>{describe(search)}</p>
        <p>
          {search.paused ? "Paused" : "Active"} · Mail: {search.email}
          {search.webhook_url
            ? ` · Webhook: ${search.webhook_disabled_at ? "disabled (retries ran out)" : "on"}`
            : ""} · <a href={row.feedIcs}>iCalendar feed</a> · <a href={row.feedAtom}>Atom feed</a>
        </p>
        <div>
          <Action
            viewer={viewer}
            id={search.id}
            action={search.paused ? "resume" : "pause"}
            label={search.paused ? "Resume" : "Pause"}
            name={search.name}
          />
          <Action viewer={viewer} id={search.id} action="test" label="Test" name={search.name} />
          <Action
            viewer={viewer}
            id={search.id}
            action="delete"
            label="Delete"
            name={search.name}
          />
        </div>
        <Deliveries deliveries={row.deliveries} />
      </section>
    </li>
  );
};

export const AlertsPage: FC<AlertsPageProps> = (
  { page, viewer, rows, emailConfirmed, mailAvailable, notices },
) => (
  <Layout page={page} title="My alerts">
    <h1>My alerts</h1>
    {notices.map((n) => <p key={n} class="notice" role="status">{n}</p>)}
    {!emailConfirmed
      ? (
        <section aria-labelledby="confirm-heading" class="aside stack">
          <h2 id="confirm-heading">Confirm your address</h2>
          <p>
            Alert mails go only to a confirmed address: {viewer.email} is not confirmed yet.
            {mailAvailable ? "" : " This server sends no mail (SMTP_URL is not set)."}
          </p>
          {mailAvailable
            ? (
              <form method="post" action="/dashboard/confirm-email">
                <CsrfField token={viewer.csrfToken} />
                <button type="submit">Send a confirmation link</button>
              </form>
            )
            : null}
        </section>
      )
      : null}
    <h2>Saved searches</h2>
    {rows.length === 0
      ? <p>No saved searches yet: search the events, then choose “Save this search”.</p>
      : (
        <ul class="stack">
          {rows.map((row) => <AlertCard key={row.search.id} viewer={viewer} row={row} />)}
        </ul>
      )}
  </Layout>
);

export interface NewAlertPageProps {
  page: PageContext;
  viewer: Viewer;
  /** The search's words and filters, as the page's query string had them. */
  params: Record<string, string>;
  problems: string[];
  emailConfirmed: boolean;
}

export const NewAlertPage: FC<NewAlertPageProps> = (
  { page, viewer, params, problems, emailConfirmed },
) => (
  <Layout page={page} title="Save this search">
    <h1>Save this search</h1>
    <p>
      {Object.entries(params).map(([k, v]) => `${k}: ${v}`).join(" · ") || "Every event"}
    </p>
    <FormProblems problems={problems} />
    <form method="post" action="/alerts" class="stack narrow">
      <CsrfField token={viewer.csrfToken} />
      {Object.entries(params).map(([name, value]) => (
        <input key={name} type="hidden" name={`f_${name}`} value={value} />
      ))}
      <div class="field">
        <label for="alert-name">Name</label>
        <input
          type="text"
          id="alert-name"
          name="name"
          value={params.q ?? params.city ?? params.topic ?? ""}
          maxlength={100}
          required
        />
      </div>
      <div class="field">
        <label for="alert-email">Mail</label>
        <select id="alert-email" name="email" aria-describedby="alert-email-hint">
          <option value="off">No mail</option>
          <option value="instant">At once</option>
          <option value="daily">A daily digest</option>
        </select>
        <span class="hint" id="alert-email-hint">
          {emailConfirmed
            ? `Sent to ${viewer.email}.`
            : "Needs your address confirmed first (see My alerts)."}
        </span>
      </div>
      <div class="field">
        <label for="alert-webhook">Webhook URL (optional)</label>
        <input type="url" id="alert-webhook" name="webhook_url" maxlength={2048} />
      </div>
      <button type="submit">Save search</button>
    </form>
  </Layout>
);
