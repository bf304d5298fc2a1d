/** The federated actors (`events`, one per topic, one per city) and their key pairs. */
import type { Sql } from "postgres";

/** What an actor is about. */
export type ActorKind = "events" | "topic" | "city";

/** A stored actor. */
export interface ActorRecord {
  handle: string;
  kind: ActorKind;
  label: string;
  country: string | null;
  created_at: Date;
}

/** Key pairs as JSON Web Keys. */
export interface StoredKeyPair {
  publicKey: JsonWebKey;
  privateKey: JsonWebKey;
}

/** The actor named `handle`, if it exists. */
export async function getActor(sql: Sql, handle: string): Promise<ActorRecord | null> {
  const rows = await sql<ActorRecord[]>`
    SELECT handle, kind, label, country, created_at FROM federation_actors
    WHERE handle = ${handle}`;
  return rows[0] ?? null;
}

/** Makes the `events` actor or topic actors unless they exist, in one statement. */
export async function ensureNamedActors(
  sql: Sql,
  actors: { handle: string; kind: "events" | "topic"; label: string }[],
): Promise<void> {
  if (actors.length === 0) return;
  await sql`
    INSERT INTO federation_actors (handle, kind, label)
    SELECT * FROM unnest(${actors.map((a) => a.handle)}::text[],
      ${actors.map((a) => a.kind)}::text[], ${actors.map((a) => a.label)}::text[])
    ON CONFLICT (handle) DO NOTHING`;
}

/**
 * The handle of the city's actor, made unless it exists: `preferred`, or `fallback` when another
 * country's city holds `preferred` (or when `shared`, the name being used in several countries).
 */
export async function ensureCityActor(
  sql: Sql,
  city: { slug: string; country: string; label: string; preferred: string; fallback: string },
): Promise<string> {
  const found = await sql<{ handle: string }[]>`
    SELECT handle FROM federation_actors
    WHERE kind = 'city' AND city_slug = ${city.slug} AND country = ${city.country}`;
  if (found.length > 0) return found[0].handle;
  for (const handle of [city.preferred, city.fallback]) {
    const made = await sql<{ handle: string }[]>`
      INSERT INTO federation_actors (handle, kind, label, city_slug, country)
      VALUES (${handle}, 'city', ${city.label}, ${city.slug}, ${city.country})
      ON CONFLICT DO NOTHING RETURNING handle`;
    if (made.length > 0) return handle;
    const again = await sql<{ handle: string }[]>`
      SELECT handle FROM federation_actors
      WHERE kind = 'city' AND city_slug = ${city.slug} AND country = ${city.country}`;
    if (again.length > 0) return again[0].handle;
  }
  throw new Error(`Cannot name the actor of ${city.label} (${city.country}): both names are taken`);
}

/** The actor's key pairs (null until made). */
export async function readActorKeys(sql: Sql, handle: string): Promise<StoredKeyPair | null> {
  const rows = await sql<{ public_key: JsonWebKey | null; private_key: JsonWebKey | null }[]>`
    SELECT public_key, private_key FROM federation_actors WHERE handle = ${handle}`;
  const row = rows[0];
  if (!row?.public_key || !row.private_key) return null;
  return { publicKey: row.public_key, privateKey: row.private_key };
}

/** Stores `keys` unless the actor has keys already; returns the keys it keeps. */
export async function storeActorKeys(
  sql: Sql,
  handle: string,
  keys: StoredKeyPair,
): Promise<StoredKeyPair | null> {
  await sql`
    UPDATE federation_actors
    SET public_key = ${sql.json(keys.publicKey as never)},
        private_key = ${sql.json(keys.privateKey as never)}
    WHERE handle = ${handle} AND public_key IS NULL`;
  return await readActorKeys(sql, handle);
}

/** Every actor with its count of followers, `events` first, then by handle. */
export async function listActorsWithFollowers(
  sql: Sql,
): Promise<(ActorRecord & { followers: number })[]> {
  return await sql<(ActorRecord & { followers: number })[]>`
    SELECT a.handle, a.kind, a.label, a.country, a.created_at,
           (SELECT count(*)::int FROM federation_followers f
            WHERE f.actor_handle = a.handle) AS followers
    FROM federation_actors a
    ORDER BY a.kind <> 'events', a.handle`;
}
