/**
 * Stored objects and activities (server/db/federation-objects.ts) as ActivityStreams: the
 * `events` actor's Create, Update and Delete of an Event, a topic or city actor's Announce of it.
 * Every id and link is made from the context's origin.
 */
import type { Context } from "@fedify/fedify";
import { Activity, Announce, Create, Delete, Event, Update } from "@fedify/vocab";
import type { ActivityRecord, ObjectRecord } from "../db/federation-objects.ts";
import type { EventSnapshot } from "./event-snapshot.ts";
import { eventObject, tombstoneObject, type ZonedEvent } from "./event-object.ts";
import { EVENTS_ACTOR } from "./actor-names.ts";
import { activityPath, profilePath } from "./paths.ts";

const PUBLIC = new URL("https://www.w3.org/ns/activitystreams#Public");

/** The site's page of an actor. */
function profileUrl(ctx: Context<void>, handle: string): URL {
  return new URL(profilePath(handle), ctx.origin);
}

/** The published Event of a stored object. */
export function objectOf(ctx: Context<void>, object: ObjectRecord): ZonedEvent {
  const snapshot = object.snapshot as EventSnapshot;
  return eventObject(snapshot, {
    id: ctx.getObjectUri(Event, { id: object.id }),
    attributedTo: ctx.getActorUri(EVENTS_ACTOR),
    page: new URL(`/events/${object.event_id}`, ctx.origin),
    topicPage: (handle) => profileUrl(ctx, handle),
    followers: ctx.getFollowersUri(EVENTS_ACTOR),
  });
}

/** The id of a stored activity. */
export function activityId(ctx: Context<void>, activity: ActivityRecord): URL {
  return new URL(activityPath(activity.id), ctx.origin);
}

/** A stored activity, its object embedded (Create, Update), a Tombstone (Delete) or linked. */
export function activityOf(ctx: Context<void>, row: ActivityRecord): Activity {
  const actor = ctx.getActorUri(row.actor_handle);
  const objectId = ctx.getObjectUri(Event, { id: row.object.id });
  const published = Temporal.Instant.fromEpochMilliseconds(row.published.getTime());
  const common = {
    id: activityId(ctx, row),
    actor,
    published,
    tos: [PUBLIC],
    ccs: [ctx.getFollowersUri(row.actor_handle)],
  };
  switch (row.kind) {
    case "Create":
      return new Create({ ...common, object: objectOf(ctx, row.object) });
    case "Update":
      return new Update({ ...common, object: objectOf(ctx, row.object) });
    case "Delete":
      return new Delete({
        ...common,
        object: tombstoneObject(objectId, row.object.deleted_at ?? row.published),
      });
    case "Announce":
      return new Announce({ ...common, object: objectId });
  }
}
