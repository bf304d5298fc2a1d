/**
 * The names of the federated actors: `events`, one per topic (its slug) and one per city
 * (`city-<slug>`, `city-<slug>-<country>` where another country's city holds the plain name).
 * Handles are lower-case ASCII letters, digits and hyphens.
 */

/** The actor of every event that federates. */
export const EVENTS_ACTOR = "events";

const MAX_SLUG = 60;

/** A text as a handle's part: accents dropped, `+` and `#` spelt out, the rest hyphens. */
export function slugOf(text: string): string {
  return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/\+/g, "plus").replace(/#/g, "sharp")
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, MAX_SLUG)
    .replace(/-+$/, "");
}

/**
 * A topic's handle: its slug; one that would be `events` or look like a city's is prefixed with
 * `topic-`. Null when nothing of it is ASCII.
 */
export function topicHandle(topic: string): string | null {
  const slug = slugOf(topic);
  if (slug === "") return null;
  if (slug === EVENTS_ACTOR || slug.startsWith("city-") || slug.startsWith("topic-")) {
    return `topic-${slug}`;
  }
  return slug;
}

/** A city's names: the plain one and the one with its country; null when it has no slug. */
export function cityHandles(
  city: string,
  country: string | null,
): { slug: string; country: string; preferred: string; fallback: string } | null {
  const slug = slugOf(city);
  if (slug === "") return null;
  const countrySlug = slugOf(country ?? "") || "xx";
  return {
    slug,
    country: countrySlug,
    preferred: `city-${slug}`,
    fallback: `city-${slug}-${countrySlug}`,
  };
}
