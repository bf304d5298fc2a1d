/** GET /fediverse and /fediverse/{handle}: the pages of the calendar's ActivityPub actors. */
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { getActor, listActorsWithFollowers } from "../../db/federation-actors.ts";
import { countFollowers } from "../../db/federation-followers.ts";
import { listOutbox } from "../../db/federation-objects.ts";
import { actorDescription } from "../../federation/actor-profile.ts";
import type { EventSnapshot } from "../../federation/event-snapshot.ts";
import { AppError } from "../../errors.ts";
import { siteOrigin } from "../../request-origin.ts";
import { renderDocument } from "../components/layout.tsx";
import { ActorPage, FediverseIndexPage, type PublishedView } from "../pages/fediverse-page.tsx";
import { pageContext } from "../site-context.ts";

const LATEST = 20;

/** The origin actor ids are made under: PUBLIC_URL, else this request's. */
function federationOrigin(c: Context<AppEnv>): string {
  const deps = c.get("deps");
  if (!deps.federation) throw new AppError("not_found", "Federation is off on this server.");
  return deps.config.publicUrl ?? siteOrigin(c);
}

/** GET /fediverse */
export async function fediverseIndexRoute(c: Context<AppEnv>): Promise<Response> {
  const origin = federationOrigin(c);
  const actors = await listActorsWithFollowers(c.get("deps").db.sql);
  return c.html(renderDocument(
    <FediverseIndexPage
      page={pageContext(c)}
      host={new URL(origin).host}
      actors={actors.map((a) => ({
        ...actorDescription(a),
        handle: a.handle,
        followers: a.followers,
        actorUrl: `${origin}/ap/actors/${a.handle}`,
      }))}
    />,
  ));
}

/** GET /fediverse/{handle} */
export async function actorPageRoute(c: Context<AppEnv>): Promise<Response> {
  const origin = federationOrigin(c);
  const sql = c.get("deps").db.sql;
  const handle = c.req.param("handle") ?? "";
  const actor = await getActor(sql, handle);
  if (actor === null) throw new AppError("not_found", "No actor of the calendar has that name.");
  const outbox = await listOutbox(sql, { actor: handle, limit: LATEST });
  const seen = new Set<string>();
  const published: PublishedView[] = [];
  for (const row of outbox) {
    if (row.object.deleted_at !== null || seen.has(row.object.id)) continue;
    seen.add(row.object.id);
    const snapshot = row.object.snapshot as EventSnapshot;
    published.push({
      name: snapshot.name,
      startTime: snapshot.startTime,
      eventId: row.object.event_id,
      kind: row.kind,
    });
  }
  return c.html(renderDocument(
    <ActorPage
      page={pageContext(c)}
      host={new URL(origin).host}
      actor={{
        ...actorDescription(actor),
        handle,
        followers: await countFollowers(sql, handle),
        actorUrl: `${origin}/ap/actors/${handle}`,
      }}
      published={published}
    />,
  ));
}
