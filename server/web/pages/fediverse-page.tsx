/**
 * `/fediverse` and `/fediverse/{handle}`: the calendar's ActivityPub actors, how to follow each
 * from a fediverse account, and what each published last.
 */
import type { FC } from "hono/jsx";
import { Layout } from "../components/layout.tsx";
import type { PageContext } from "../page-context.ts";
import { formatInstant } from "../event-times.ts";

/** An actor as the pages show it. */
export interface ActorView {
  handle: string;
  name: string;
  summary: string;
  followers: number;
  /** Its ActivityPub id (the JSON document). */
  actorUrl: string;
}

/** An event the actor published or announced. */
export interface PublishedView {
  name: string;
  startTime: string;
  eventId: string;
  kind: string;
}

export const FediverseIndexPage: FC<{ page: PageContext; host: string; actors: ActorView[] }> = (
  { page, host, actors },
) => (
  <Layout page={page} title="Follow from the fediverse">
    <h1>Follow from the fediverse</h1>
    <p>
      Follow the calendar from Mastodon or any ActivityPub server: every new event of a trusted
      contributor appears in your timeline with its date, place and call for papers.
    </p>
    <ul>
      {actors.map((a) => (
        <li key={a.handle}>
          <a href={`/fediverse/${a.handle}`}>@{a.handle}@{host}</a>: {a.name} ({a.followers}{" "}
          follower{a.followers === 1 ? "" : "s"})
        </li>
      ))}
    </ul>
  </Layout>
);

export const ActorPage: FC<
  { page: PageContext; host: string; actor: ActorView; published: PublishedView[] }
> = ({ page, host, actor, published }) => (
  <Layout
    page={page}
    title={actor.name}
    head={<link rel="alternate" type="application/activity+json" href={actor.actorUrl} />}
  >
    <h1>{actor.name}</h1>
    <p>{actor.summary}</p>
    <p>
      Follow <strong>@{actor.handle}@{host}</strong>{" "}
      from your fediverse account: search for it there, or open{" "}
      <a href={actor.actorUrl} rel="me">its ActivityPub actor</a>. {actor.followers}{" "}
      follower{actor.followers === 1 ? "" : "s"}.
    </p>
    <h2>Latest</h2>
    {published.length === 0 ? <p class="empty">Nothing published yet.</p> : (
      <ol class="event-list">
        {published.map((p) => (
          <li key={`${p.kind}-${p.eventId}`}>
            <a href={`/events/${p.eventId}`}>{p.name}</a>{" "}
            <span class="meta">{formatInstant(p.startTime)}</span>
          </li>
        ))}
      </ol>
    )}
    <p>
      <a href="/fediverse">Every actor of the calendar</a>
    </p>
  </Layout>
);
