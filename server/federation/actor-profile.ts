/** What an actor says about itself, on its ActivityPub document and its page on the site. */
import type { ActorRecord } from "../db/federation-actors.ts";

/** The actor's display name and one-line summary. */
export function actorDescription(actor: Pick<ActorRecord, "kind" | "label" | "country">): {
  name: string;
  summary: string;
} {
  switch (actor.kind) {
    case "events":
      return {
        name: "Tech events",
        summary: "Every technology event of a trusted contributor, as it is announced.",
      };
    case "topic":
      return {
        name: `${actor.label} events`,
        summary: `Technology events about ${actor.label}, as they are announced.`,
      };
    case "city": {
      const where = actor.country ? `${actor.label} (${actor.country.toUpperCase()})` : actor.label;
      return {
        name: `Tech events in ${actor.label}`,
        summary: `Technology events in ${where}, as they are announced.`,
      };
    }
  }
}
