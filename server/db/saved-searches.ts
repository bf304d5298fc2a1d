/**
 * Saved searches: a contributor's stored words and filters, with the channels that tell of what
 * matches them. What matching reads (`q_match`, `anchor` and one column per filter) is resolved
 * here at save, once; server/db/saved-search-match.ts reads it.
 */
import type { Sql } from "postgres";
import type { EventFilters } from "./event-filters.ts";

/** A saved search as stored. */
export interface SavedSearchRecord {
  id: string;
  contributor_id: string;
  name: string;
  q: string | null;
  filters: Record<string, unknown>;
  webhook_url: string | null;
  webhook_secret: string | null;
  webhook_disabled_at: Date | null;
  email: "instant" | "daily" | "off";
  paused: boolean;
  feed_token: string;
  created_at: Date;
  updated_at: Date;
}

/** What a save writes: the API's fields and their resolved filters. */
export interface SavedSearchFields {
  name: string;
  q: string | null;
  /** As the API took them, echoed back. */
  filters: Record<string, unknown>;
  /** The same, parsed as a listing parses its query string. */
  resolved: EventFilters;
  webhook_url: string | null;
  email: "instant" | "daily" | "off";
}

const COLUMNS = "id, contributor_id, name, q, filters, webhook_url, webhook_secret, " +
  "webhook_disabled_at, email, paused, feed_token, created_at, updated_at";

/** The columns a save and an update both write from the search's fields. */
function searchColumns(
  sql: Sql,
  row: { fields: SavedSearchFields; qMatch: string | null; webhookSecret: string | null },
) {
  const f = row.fields;
  return {
    name: f.name,
    q: f.q,
    filters: sql.json(f.filters as Parameters<typeof sql.json>[0]),
    q_match: row.qMatch,
    word_anchor: wordAnchorOf(row.qMatch),
    ...matchColumns(f),
    webhook_url: f.webhook_url,
    webhook_secret: row.webhookSecret,
    email: f.email,
  };
}

/** The match columns of `fields`, as the INSERT and UPDATE write them. */
function matchColumns(fields: SavedSearchFields) {
  const f = fields.resolved;
  return {
    city: f.city ?? null,
    country: f.country ?? null,
    from_at: f.from ?? null,
    to_at: f.to ?? null,
    platform: f.platform ?? null,
    external_id: f.external_id ?? null,
    is_virtual: f.is_virtual ?? null,
    is_free: f.is_free ?? null,
    topic: f.topic ?? null,
    attendance: f.attendance ?? null,
    near_latitude: f.near?.latitude ?? null,
    near_longitude: f.near?.longitude ?? null,
    near_radius_km: f.near?.radius_km ?? null,
    cfp: f.cfp ?? null,
    cfp_closes_before: f.cfp_closes_before ?? null,
    cfp_closes_after: f.cfp_closes_after ?? null,
  };
}

/**
 * Every word of `q` as one tsquery (the first tier of a ?q= listing, 004_text_tiers.sql), as
 * text; null without `q`, and "" when `q` has no word that can be searched (only stop words).
 */
export async function everyWordQuery(sql: Sql, q: string | null): Promise<string | null> {
  if (q === null) return null;
  const [row] = await sql<{ query: string | null }[]>`
    SELECT event_text_at_least(w.words, cardinality(w.words))::text AS query
    FROM event_text_words(event_text_normalised(${q})) AS w`;
  return row.query ?? "";
}

/** The lexemes of a tsquery's text form: quoted, with '' and \ escapes. */
function lexemesOf(query: string): string[] {
  return [...query.matchAll(/'((?:[^'\\]|''|\\.)*)'/g)]
    .map((m) => m[1].replaceAll("''", "'").replace(/\\(.)/g, "$1"));
}

/**
 * A word every event matching the search holds (see saved-search-match.ts): the longest of its
 * every-word query (longer words are rarer), or null. The column `anchor` (migration 034) falls
 * back on the topic, and pairs either with the city or country when the search names one.
 */
export function wordAnchorOf(qMatch: string | null): string | null {
  const words = qMatch ? lexemesOf(qMatch).sort((a, b) => b.length - a.length) : [];
  return words.length > 0 ? `w:${words[0]}` : null;
}

/**
 * Stores a new saved search unless the contributor has `max` already (then null). The count and
 * the insert share a lock on the contributor's row, so two saves at once cannot both pass.
 */
export async function insertSavedSearch(
  sql: Sql,
  row: {
    contributorId: string;
    fields: SavedSearchFields;
    qMatch: string | null;
    webhookSecret: string | null;
    feedToken: string;
    unsubscribeToken: string;
    linkBase: string;
    max: number;
  },
): Promise<SavedSearchRecord | null> {
  return await sql.begin(async (transaction) => {
    const tx = transaction as unknown as Sql;
    await tx`SELECT 1 FROM contributors WHERE id = ${row.contributorId} FOR UPDATE`;
    const [{ n }] = await tx<{ n: number }[]>`
      SELECT count(*)::int AS n FROM saved_searches WHERE contributor_id = ${row.contributorId}`;
    if (n >= row.max) return null;
    const values = {
      contributor_id: row.contributorId,
      ...searchColumns(tx, row),
      feed_token: row.feedToken,
      unsubscribe_token: row.unsubscribeToken,
      link_base: row.linkBase,
    };
    const [saved] = await tx<SavedSearchRecord[]>`
      INSERT INTO saved_searches ${tx(values)} RETURNING ${tx.unsafe(COLUMNS)}`;
    return saved;
  }) as SavedSearchRecord | null;
}

/** The contributor's saved searches, oldest first. */
export async function listSavedSearches(
  sql: Sql,
  contributorId: string,
): Promise<SavedSearchRecord[]> {
  return await sql<SavedSearchRecord[]>`
    SELECT ${sql.unsafe(COLUMNS)} FROM saved_searches
    WHERE contributor_id = ${contributorId} ORDER BY created_at, id`;
}

/** One of the contributor's saved searches, or null (another's is absent too). */
export async function getSavedSearch(
  sql: Sql,
  contributorId: string,
  id: string,
): Promise<SavedSearchRecord | null> {
  const [row] = await sql<SavedSearchRecord[]>`
    SELECT ${sql.unsafe(COLUMNS)} FROM saved_searches
    WHERE id = ${id} AND contributor_id = ${contributorId}`;
  return row ?? null;
}

/**
 * Replaces a saved search's fields (the whole of them: the caller merges a PATCH first), its
 * pause, and, when given, its webhook secret or feed token. A new webhook URL ends a disabling.
 */
export async function updateSavedSearch(
  sql: Sql,
  row: {
    id: string;
    contributorId: string;
    fields: SavedSearchFields;
    qMatch: string | null;
    paused: boolean;
    webhookSecret: string | null;
    feedToken: string;
  },
): Promise<SavedSearchRecord | null> {
  const f = row.fields;
  const values = {
    ...searchColumns(sql, row),
    paused: row.paused,
    feed_token: row.feedToken,
  };
  const [saved] = await sql<SavedSearchRecord[]>`
    UPDATE saved_searches SET ${sql(values)}, updated_at = now(),
      webhook_disabled_at = CASE WHEN webhook_url IS DISTINCT FROM ${f.webhook_url}
                                 THEN NULL ELSE webhook_disabled_at END,
      -- A daily digest tells of what matched from the time it was asked for.
      digest_sent_at = CASE WHEN email <> 'daily' AND ${f.email} = 'daily'
                            THEN now() ELSE digest_sent_at END
    WHERE id = ${row.id} AND contributor_id = ${row.contributorId}
    RETURNING ${sql.unsafe(COLUMNS)}`;
  return saved ?? null;
}

/** Deletes one of the contributor's saved searches; whether it did. */
export async function deleteSavedSearch(
  sql: Sql,
  contributorId: string,
  id: string,
): Promise<boolean> {
  const rows = await sql`
    DELETE FROM saved_searches WHERE id = ${id} AND contributor_id = ${contributorId}
    RETURNING id`;
  return rows.length > 0;
}

/** Turns off mail for the saved search whose unsubscribe link holds `token`; its name, or null. */
export async function unsubscribeByToken(sql: Sql, token: string): Promise<string | null> {
  const [row] = await sql<{ name: string }[]>`
    UPDATE saved_searches SET email = 'off', updated_at = now()
    WHERE unsubscribe_token = ${token} RETURNING name`;
  return row?.name ?? null;
}

/** The saved search whose private feeds `token` opens, or null. */
export async function savedSearchByFeedToken(
  sql: Sql,
  token: string,
): Promise<SavedSearchRecord | null> {
  const [row] = await sql<SavedSearchRecord[]>`
    SELECT ${sql.unsafe(COLUMNS)} FROM saved_searches WHERE feed_token = ${token}`;
  return row ?? null;
}

/** The events a saved search has told of that still exist and are not over, soonest first. */
export async function toldOfEventIds(
  sql: Sql,
  savedSearchId: string,
  limit: number,
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    SELECT e.id FROM alert_hits h JOIN events e ON e.id = h.event_id
    WHERE h.saved_search_ids @> ARRAY[${savedSearchId}::uuid]
      AND coalesce(e.ends_at, e.starts_at) >= now()
    ORDER BY e.starts_at, e.id
    LIMIT ${limit}`;
  return rows.map((r) => r.id);
}
