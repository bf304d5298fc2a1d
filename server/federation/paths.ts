/** Where federation's documents live under the origin, and each actor's page on the site. */

/** Fedify's routes. */
export const PATHS = {
  actor: "/ap/actors/{identifier}",
  inbox: "/ap/actors/{identifier}/inbox",
  sharedInbox: "/ap/inbox",
  outbox: "/ap/actors/{identifier}/outbox",
  followers: "/ap/actors/{identifier}/followers",
  object: "/ap/objects/{id}",
} as const;

/** Paths Fedify answers (the rest goes to the site and the API). */
export function isFederationPath(path: string): boolean {
  return path.startsWith("/ap/") || path === "/.well-known/webfinger";
}

/** The site's page of an actor (server/web). */
export function profilePath(handle: string): string {
  return `/fediverse/${handle}`;
}

/** An activity's id. */
export function activityPath(id: string): string {
  return `/ap/activities/${id}`;
}
