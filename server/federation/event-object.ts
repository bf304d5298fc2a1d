/**
 * A snapshot (event-snapshot.ts) as an ActivityStreams Event: name, summary, content, times,
 * location as a Place with its address and coordinates, url to the event's page, Hashtags, and
 * the time zone as FEP-8a8e's `timezone`. Fedify's vocabulary has neither `timezone` nor a
 * Place's `address`: the two subclasses below add them to the JSON-LD Fedify writes, under their
 * full IRIs (the same terms as Mobilizon's and schema.org's, spelt out).
 */
import { Event, Hashtag, Place, Tombstone } from "@fedify/vocab";
import type { EventSnapshot } from "./event-snapshot.ts";

/** FEP-8a8e's time zone of an event (Mobilizon's term). */
export const TIMEZONE_IRI = "https://joinmobilizon.org/ns#timezone";
/** schema.org's address, as a Place's street address text. */
export const ADDRESS_IRI = "http://schema.org/address";

type JsonLdOptions = Parameters<Event["toJsonLd"]>[0];

/** Adds `iri: value` to what toJsonLd wrote, expanded or compact. */
function withProperty(json: unknown, iri: string, value: string | null): unknown {
  if (value === null) return json;
  if (Array.isArray(json)) {
    json[0][iri] = [{ "@value": value }];
    return json;
  }
  (json as Record<string, unknown>)[iri] = value;
  return json;
}

/** An Event with FEP-8a8e's `timezone`. */
export class ZonedEvent extends Event {
  timezone: string | null = null;

  override async toJsonLd(options?: JsonLdOptions): Promise<unknown> {
    return withProperty(await super.toJsonLd(options), TIMEZONE_IRI, this.timezone);
  }
}

/** A Place with a schema.org `address`. */
export class AddressedPlace extends Place {
  address: string | null = null;

  override async toJsonLd(options?: JsonLdOptions): Promise<unknown> {
    return withProperty(await super.toJsonLd(options), ADDRESS_IRI, this.address);
  }
}

/** The links an object carries, made from the origin it is served from. */
export interface ObjectLinks {
  /** The object's id. */
  id: URL;
  /** The actor that publishes it (`events`). */
  attributedTo: URL;
  /** The event's page on the site. */
  page: URL;
  /** The profile page of a topic actor, for a hashtag's link. */
  topicPage(handle: string): URL;
  /** Followers collection of the `events` actor, addressed with the public. */
  followers: URL;
}

const PUBLIC = new URL("https://www.w3.org/ns/activitystreams#Public");

/** The Event a snapshot describes. */
export function eventObject(snapshot: EventSnapshot, links: ObjectLinks): ZonedEvent {
  let location: AddressedPlace | null = null;
  if (snapshot.place) {
    location = new AddressedPlace({
      name: snapshot.place.name,
      latitude: snapshot.place.latitude,
      longitude: snapshot.place.longitude,
    });
    location.address = snapshot.place.address;
  }
  const event = new ZonedEvent({
    id: links.id,
    attribution: links.attributedTo,
    name: snapshot.name,
    summary: snapshot.summary,
    content: snapshot.content,
    startTime: Temporal.Instant.from(snapshot.startTime),
    endTime: snapshot.endTime ? Temporal.Instant.from(snapshot.endTime) : null,
    location,
    url: links.page,
    tags: snapshot.hashtags.map((tag) =>
      new Hashtag({
        name: `#${tag.name.replace(/[^\p{L}\p{N}_]+/gu, "")}`,
        href: tag.handle ? links.topicPage(tag.handle) : null,
      })
    ),
    tos: [PUBLIC],
    ccs: [links.followers],
  });
  event.timezone = snapshot.timezone;
  return event;
}

/** What a deleted object's id serves, and what a Delete carries. */
export function tombstoneObject(id: URL, deleted: Date): Tombstone {
  return new Tombstone({ id, deleted: Temporal.Instant.fromEpochMilliseconds(deleted.getTime()) });
}
