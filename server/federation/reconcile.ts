/**
 * Brings what federation published for one event in line with the database: the group's shown
 * listing, when it federates (the AI-search rule), is one object (Create, then Update on a
 * material change or when another listing of the group is shown), announced by its topic and
 * city actors; anything else it published is deleted (Delete with a Tombstone). The activities
 * are recorded here, in the caller's transaction, and sent after it commits (publisher.ts).
 */
import type { Sql } from "postgres";
import { getEventById } from "../db/event-reads.ts";
import { ensureCityActor, ensureNamedActors } from "../db/federation-actors.ts";
import {
  addActivities,
  insertObject,
  readShownListing,
  tombstoneObject,
  updateObject,
} from "../db/federation-objects.ts";
import { cityHandles, EVENTS_ACTOR, topicHandle } from "./actor-names.ts";
import { snapshotHash, snapshotOf } from "./event-snapshot.ts";
import type { StoredEvent } from "../../shared/api-schemas.ts";

type Activity = { actor: string; kind: string; objectId: string };

/** Looks at one event again; records the activities that follow. */
export async function reconcileEvent(tx: Sql, eventId: string): Promise<void> {
  const { live, shown } = await readShownListing(tx, eventId);
  const activities: Activity[] = [];
  const withdraw = async (objectId: string) => {
    await tombstoneObject(tx, objectId);
    activities.push({ actor: EVENTS_ACTOR, kind: "Delete", objectId });
  };
  if (shown === null || !shown.federates || (live.length === 0 && !shown.upcoming)) {
    for (const object of live) await withdraw(object.id);
    await addActivities(tx, activities);
    return;
  }
  const event = await getEventById(tx, shown.id);
  if (event === null) return;
  const { topics, city } = await actorsOf(tx, event);
  const snapshot = snapshotOf(event, topics);
  const contentHash = await snapshotHash(snapshot);
  const announcers = [...new Set([...topics.values(), ...(city ? [city] : [])])];
  const [kept, ...extra] = live;
  if (kept === undefined) {
    const objectId = await insertObject(tx, {
      eventId: event.id,
      snapshot,
      contentHash,
      announcedBy: announcers,
    });
    activities.push({ actor: EVENTS_ACTOR, kind: "Create", objectId });
    for (const actor of announcers) activities.push({ actor, kind: "Announce", objectId });
  } else {
    if (kept.event_id !== event.id || kept.content_hash !== contentHash) {
      await updateObject(tx, { id: kept.id, eventId: event.id, snapshot, contentHash });
      activities.push({ actor: EVENTS_ACTOR, kind: "Update", objectId: kept.id });
    }
    // Two published events found to be one: the older object stays, the other goes.
    for (const object of extra) await withdraw(object.id);
  }
  await addActivities(tx, activities);
}

/** The topic actors (by topic) and the city actor of an event, made when first used. */
async function actorsOf(
  tx: Sql,
  event: StoredEvent,
): Promise<{ topics: Map<string, string>; city: string | null }> {
  const topics = new Map<string, string>();
  for (const topic of event.topics) {
    const handle = topicHandle(topic);
    if (handle !== null) topics.set(topic, handle);
  }
  // In handle order: two transactions making the same actors never wait on each other in turn.
  const made = [...topics].map(([label, handle]) => ({ handle, kind: "topic" as const, label }));
  await ensureNamedActors(tx, made.sort((a, b) => (a.handle < b.handle ? -1 : 1)));
  let city: string | null = null;
  const names = event.city ? cityHandles(event.city, event.country) : null;
  if (names && event.city) city = await ensureCityActor(tx, { ...names, label: event.city });
  return { topics, city };
}
