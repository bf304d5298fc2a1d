/** `/dashboard`: a contributor's keys, a form for a new one, their events. */
import type { FC } from "hono/jsx";
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import type { KeyWithEvents } from "../../db/contributor-dashboard.ts";
import { CONTRIBUTOR_SCOPES, KEY_LIFETIMES } from "../../accounts/dashboard-keys.ts";

const SCOPE_LABELS: Record<typeof CONTRIBUTOR_SCOPES[number], string> = {
  "events:write": "push events",
  "searches:write": "save searches that notify (alerts)",
};
import { CsrfField, Layout } from "../components/layout.tsx";
import { EventsTable, KeysTable } from "../components/dashboard-tables.tsx";
import { FormProblems } from "../components/form-problems.tsx";
import type { PageContext } from "../page-context.ts";
import type { Viewer } from "../../accounts/viewer.ts";
import type { UnreviewedBudgets } from "../../config.ts";

export interface DashboardPageProps {
  page: PageContext;
  viewer: Viewer;
  keys: KeyWithEvents[];
  events: { events: StoredEvent[]; total: number };
  notices: string[];
  /** Problems of a new-key form sent back, with what was typed. */
  keyForm?: { problems: string[]; name?: string };
  now: Date;
  /** The budgets the account is held to until an operator reviews it; null once reviewed. */
  budgets?: UnreviewedBudgets | null;
}

/** What a new account may do before review, said before it runs into it. */
const Budgets: FC<{ budgets: UnreviewedBudgets }> = ({ budgets }) => (
  <p class="notice" role="note">
    Until an operator has reviewed your events, your account may hold at most{" "}
    {budgets.maxUpcomingEvents} upcoming events and {budgets.maxKeys} keys, each key may make{" "}
    {budgets.rateLimitPerMinute}{" "}
    requests a minute, and your events share the front page with everyone else's. Once an operator
    trusts one of your keys, these limits no longer apply.
  </p>
);

const LIFETIME_LABELS: Record<typeof KEY_LIFETIMES[number], string> = {
  "30": "In 30 days",
  "90": "In 90 days",
  "365": "In a year",
  never: "Never",
};

const NewKey: FC<{ viewer: Viewer; form?: DashboardPageProps["keyForm"] }> = ({ viewer, form }) => (
  <section aria-labelledby="new-key-heading" class="aside narrow stack">
    <h2 id="new-key-heading">Generate a key</h2>
    <FormProblems problems={form?.problems ?? []} />
    <form method="post" action="/dashboard/keys" class="stack">
      <CsrfField token={viewer.csrfToken} />
      <div class="field">
        <label for="key-name">Name</label>
        <input
          type="text"
          id="key-name"
          name="name"
          value={form?.name ?? ""}
          maxlength={100}
          required
          aria-describedby="key-name-hint"
        />
        <span class="hint" id="key-name-hint">What the key is for, such as “meetup scraper”.</span>
      </div>
      <fieldset class="field">
        <legend>Scopes</legend>
        {CONTRIBUTOR_SCOPES.map((scope) => (
          <label key={scope} class="check">
            <input type="checkbox" name="scopes" value={scope} checked={scope === "events:write"} />
            <code>{scope}</code>: {SCOPE_LABELS[scope]}
          </label>
        ))}
      </fieldset>
      <div class="field">
        <label for="key-lifetime">Expires</label>
        <select id="key-lifetime" name="lifetime">
          {KEY_LIFETIMES.map((lifetime) => (
            <option key={lifetime} value={lifetime} selected={lifetime === "90"}>
              {LIFETIME_LABELS[lifetime]}
            </option>
          ))}
        </select>
      </div>
      <button type="submit">Generate key</button>
    </form>
  </section>
);

const OperatorConfirmation: FC<{ viewer: Viewer }> = ({ viewer }) => (
  <section aria-labelledby="operator-heading" class="aside stack">
    <h2 id="operator-heading">Operator access</h2>
    <p>
      Your address is an operator address (OPERATOR_EMAILS). To open the review queue, prove that
      you hold the operator key: the server's ADMIN_API_KEY.
    </p>
    <form method="post" action="/dashboard/operator">
      <CsrfField token={viewer.csrfToken} />
      <div class="field">
        <label for="operator-key">Operator key</label>
        <input type="password" id="operator-key" name="operator_key" autocomplete="off" required />
      </div>
      <button type="submit">Confirm operator access</button>
    </form>
  </section>
);

export const DashboardPage: FC<DashboardPageProps> = (
  { page, viewer, keys, events, notices, keyForm, now, budgets },
) => (
  <Layout page={page} title="Dashboard">
    <h1>Dashboard</h1>
    <p>
      Signed in as <strong>{viewer.email}</strong>.
      {viewer.isOperator
        ? (
          <>
            {" "}You are an operator: see the <a href="/review">review queue</a>.
          </>
        )
        : null}
    </p>
    {notices.map((notice) => <p key={notice} class="notice ok" role="status">{notice}</p>)}
    {viewer.operatorAddress && !viewer.isOperator ? <OperatorConfirmation viewer={viewer} /> : null}
    {budgets ? <Budgets budgets={budgets} /> : null}
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">Your API keys</h2>
      {keys.length > 0
        ? <KeysTable keys={keys} now={now} />
        : <p>No keys yet. Generate one below to push events with the API or the events CLI.</p>}
    </section>
    <NewKey viewer={viewer} form={keyForm} />
    <section aria-labelledby="events-heading">
      <h2 id="events-heading">Your events</h2>
      {events.total > 0
        ? (
          <>
            <p>
              {events.total} event{events.total === 1 ? "" : "s"}
              {events.total > events.events.length
                ? `; the ${events.events.length} changed most recently:`
                : ":"}
            </p>
            <EventsTable events={events.events} />
            <p class="after-form">
              <a href="/dashboard/events/delete-all">Delete all my events</a>
            </p>
          </>
        )
        : <p>No events yet. Events you push with your keys appear here and on the site at once.</p>}
    </section>
  </Layout>
);
