/** `/review`: keys waiting for an operator, each with its first batch as the site shows it. */
import type { FC } from "hono/jsx";
import type { StoredEvent } from "../../../shared/api-schemas.ts";
import type { ApiKeyRecord } from "../../db/api-keys.ts";
import { CsrfField, Layout } from "../components/layout.tsx";
import { DataTable } from "../components/data-table.tsx";
import { EventCard } from "../components/event-card.tsx";
import type { PageContext } from "../page-context.ts";
import type { Viewer } from "../../accounts/viewer.ts";
import { formatInstant } from "../event-times.ts";
import { type Signal, SIGNALS } from "../../events/event-signals.ts";

/** A pending key, its first batch, and its contributor's review signals (events per signal). */
export interface PendingReview {
  key: ApiKeyRecord;
  batch: { received_at: string; events: StoredEvent[] } | null;
  signals: Record<string, number>;
}

/** Why the queue puts a contributor where it is, as a list of reasons. */
const Signals: FC<{ signals: Record<string, number> }> = ({ signals }) => {
  const found = Object.entries(signals).sort(([, a], [, b]) => b - a);
  if (found.length === 0) return <p class="meta">No review signals.</p>;
  return (
    <div class="notice" role="note">
      <p>
        <strong>Look first:</strong>
      </p>
      <ul class="signals">
        {found.map(([signal, events]) => (
          <li key={signal}>
            {events} event{events === 1 ? "" : "s"} with{" "}
            {SIGNALS[signal as Signal] ?? signal.replaceAll("_", " ")}
          </li>
        ))}
      </ul>
    </div>
  );
};

export interface ReviewPageProps {
  page: PageContext;
  viewer: Viewer;
  pending: PendingReview[];
  trusted: ApiKeyRecord[];
  notices: string[];
  /** The ActivityPub actors with their followers, and the blocked domains (when federating). */
  fediverse?: { actors: { handle: string; followers: number }[]; blocked: string[] };
}

/** Events of a batch shown in full; the rest are counted. */
const SHOWN_PER_BATCH = 10;

const Decision: FC<
  { viewer: Viewer; keyId: string; action: string; label: string; kind?: string }
> = ({ viewer, keyId, action, label, kind }) => (
  <form method="post" action={`/review/keys/${keyId}/${action}`} class="inline-form">
    <CsrfField token={viewer.csrfToken} />
    <button type="submit" class={kind}>{label}</button>
  </form>
);

const Review: FC<{ viewer: Viewer; review: PendingReview }> = ({ viewer, review }) => {
  const { key, batch, signals } = review;
  const events = batch?.events ?? [];
  return (
    <article class="review stack" aria-labelledby={`key-${key.id}`}>
      <h2 id={`key-${key.id}`}>
        {key.name} <code>{key.prefix}…</code>
      </h2>
      <p class="meta">
        <span>Contributor: {key.contributor}</span>
        <span>Created {formatInstant(key.created_at)} by {key.created_by}</span>
        {batch ? <span>First batch {formatInstant(batch.received_at)}</span> : null}
      </p>
      <Signals signals={signals} />
      <h3>First batch: {events.length} event{events.length === 1 ? "" : "s"} still listed</h3>
      {events.length > 0
        ? (
          <ol class="event-list">
            {events.slice(0, SHOWN_PER_BATCH).map((e) => <EventCard key={e.id} event={e} />)}
          </ol>
        )
        : <p>Every event of the first batch has been deleted since.</p>}
      {events.length > SHOWN_PER_BATCH
        ? <p>… and {events.length - SHOWN_PER_BATCH} more.</p>
        : null}
      <div class="actions">
        <Decision viewer={viewer} keyId={key.id} action="trust" label="Trust: into AI search" />
        <Decision
          viewer={viewer}
          keyId={key.id}
          action="untrust"
          label="Keep out of AI search"
          kind="secondary"
        />
        <a class="button secondary" href={`/review/keys/${key.id}/revoke`}>Revoke key…</a>
        <a
          class="button secondary"
          href={`/review/contributors/${key.contributor_id}/delete-events`}
        >
          Delete all their events…
        </a>
        <a class="button secondary" href={`/review/contributors/${key.contributor_id}/clean-up`}>
          Clean up: revoke keys, delete events, block sign-in…
        </a>
      </div>
    </article>
  );
};

const TrustedKeys: FC<{ viewer: Viewer; keys: ApiKeyRecord[] }> = ({ viewer, keys }) => (
  <DataTable
    label="Trusted keys"
    columns={["Key", "Contributor", "Trusted", { hidden: "Actions" }]}
  >
    {keys.map((key) => (
      <tr key={key.id}>
        <td>
          {key.name} <code>{key.prefix}…</code>
        </td>
        <td>{key.contributor}</td>
        <td>
          {key.reviewed_at ? formatInstant(key.reviewed_at) : ""} {key.reviewed_by ?? ""}
        </td>
        <td>
          <Decision
            viewer={viewer}
            keyId={key.id}
            action="untrust"
            label="Untrust"
            kind="secondary"
          />{" "}
          <a href={`/review/keys/${key.id}/revoke`}>Revoke…</a>
        </td>
      </tr>
    ))}
  </DataTable>
);

const Fediverse: FC<{ fediverse: NonNullable<ReviewPageProps["fediverse"]> }> = (
  { fediverse },
) => (
  <section aria-labelledby="fediverse-heading">
    <h2 id="fediverse-heading">Fediverse</h2>
    <DataTable label="Followers per actor" columns={["Actor", "Followers"]}>
      {fediverse.actors.map((a) => (
        <tr key={a.handle}>
          <td>
            <a href={`/fediverse/${a.handle}`}>@{a.handle}</a>
          </td>
          <td>{a.followers}</td>
        </tr>
      ))}
    </DataTable>
    <p>
      Blocked domains (<code>/api/v1/admin/federation/blocks</code>):{" "}
      {fediverse.blocked.length === 0 ? "none" : fediverse.blocked.join(", ")}.
    </p>
  </section>
);

export const ReviewPage: FC<ReviewPageProps> = (
  { page, viewer, pending, trusted, notices, fediverse },
) => (
  <Layout page={page} title="Review queue">
    <h1>Review queue</h1>
    <p>
      Keys whose first batch waits for a decision, those whose contributor's events carry the most
      review signals first. Trusting a key puts every current and future event it writes into AI
      search; its events are listed and text-searchable either way. Every decision is in the{" "}
      <a href="/review/audit">audit log</a>.
    </p>
    <p>
      <a href="/review/duplicates">Duplicate listings</a>: groups of listings of one event, to split
      or join by hand.
    </p>
    {notices.map((notice) => <p key={notice} class="notice ok" role="status">{notice}</p>)}
    {pending.length === 0
      ? <p class="empty">Nothing to review: no key has a first batch waiting.</p>
      : pending.map((review) => <Review key={review.key.id} viewer={viewer} review={review} />)}
    <section aria-labelledby="trusted-heading">
      <h2 id="trusted-heading">Trusted keys</h2>
      {trusted.length === 0
        ? <p>No key is trusted yet.</p>
        : <TrustedKeys viewer={viewer} keys={trusted} />}
    </section>
    {fediverse ? <Fediverse fediverse={fediverse} /> : null}
  </Layout>
);
